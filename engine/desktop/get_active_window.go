package desktop

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

// noArgs is get_active_window's argument type: it takes none.
type noArgs struct{}

// activeWindowData is get_active_window's data.
type activeWindowData struct {
	Title   string       `json:"title"`
	App     string       `json:"app"`
	PID     int          `json:"pid"`
	Bounds  desktop.Rect `json:"bounds"`
	Display string       `json:"display"`
	// Monitor is the monitor holding most of the window, when the
	// system lists its monitors.
	Monitor *desktop.Monitor `json:"monitor,omitempty"`
}

func init() {
	action.Register(action.Spec{
		Name:    "get_active_window",
		NewArgs: func() any { return &noArgs{} },
		Run:     getActiveWindow,
	})
}

// getActiveWindow describes the window that has the focus. Its title is
// content of the user's screen, so it goes through the content check.
func getActiveWindow(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	w, err := systemDesktop(env).ActiveWindow(ctx)
	if err != nil {
		return nil, errmap.Desktop(err, "Reading the active window")
	}
	title := []byte(w.Title)
	if perr := env.Content(ctx, c, action.Outgoing{Source: "title", Text: title}); perr != nil {
		return nil, perr
	}
	c.Detail = map[string]any{"pid": w.PID}
	return activeWindowData{Title: string(title), App: w.App, PID: w.PID, Bounds: w.Bounds, Display: w.Display, Monitor: w.Monitor}, nil
}
