package desktop

import (
	"context"
	"encoding/base64"
	"os"
	"strings"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

type captureScreenArgs struct {
	// Display is the local X11 display (":0", ":1.0"); only the session's
	// own display may be named.
	Display string `json:"display"`
	// Monitor is one monitor, by its name (get_active_window's
	// monitor.name) or its index from 0; region is then relative to its
	// corner.
	Monitor     string      `json:"monitor" jsonschema:"maxLength=256"`
	Region      *regionArgs `json:"region"`
	Window      string      `json:"window" jsonschema:"enum=active"`
	Format      string      `json:"format" jsonschema:"enum=png,enum=jpeg,enum=webp"`
	MaxWidth    int         `json:"max_width" jsonschema:"minimum=1,maximum=16384"`
	Destination string      `json:"destination"`
}

// regionArgs is a rectangle of the display.
type regionArgs struct {
	X      int `json:"x" jsonschema:"required,minimum=0,maximum=32767"`
	Y      int `json:"y" jsonschema:"required,minimum=0,maximum=32767"`
	Width  int `json:"width" jsonschema:"required,minimum=1,maximum=32767"`
	Height int `json:"height" jsonschema:"required,minimum=1,maximum=32767"`
}

// localDisplay reports whether d is a local X11 display name (":0",
// ":1.0"): a host part would make the host connect out over the network.
func localDisplay(d string) bool {
	num, screen, dotted := strings.Cut(strings.TrimPrefix(d, ":"), ".")
	return strings.HasPrefix(d, ":") && digits(num, 4) && (!dotted || digits(screen, 2))
}

// digits reports whether s is 1 to max decimal digits.
func digits(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Validate refuses a display that is not the session's own.
func (a *captureScreenArgs) Validate() error {
	if a.Display != "" && (!localDisplay(a.Display) || a.Display != os.Getenv("DISPLAY")) {
		return envelope.ArgumentError("The argument display must be the session's own local display (DISPLAY), such as \":0\"; DeskBridge connects to no other.")
	}
	return nil
}

// captureData is capture_screen's data.
type captureData struct {
	Format       string  `json:"format"`
	Content      string  `json:"content,omitempty"`
	Path         string  `json:"path,omitempty"`
	Size         int     `json:"size"`
	Width        int     `json:"width"`
	Height       int     `json:"height"`
	SourceWidth  int     `json:"source_width"`
	SourceHeight int     `json:"source_height"`
	Scale        float64 `json:"scale"`
}

func init() {
	action.Register(action.Spec{
		Name:    "capture_screen",
		Rules:   []action.Rule{action.Absolute("destination")},
		NewArgs: func() any { return &captureScreenArgs{} },
		Facts: func(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
			if d := action.Args[captureScreenArgs](c).Destination; d != "" {
				_, perr := c.Path(env, "destination", d)
				return perr
			}
			return nil
		},
		Run: captureScreen,
	})
}

// captureScreen captures the display, a region or the active window, and
// saves the image to the destination or returns it scaled to fit one
// message.
func captureScreen(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[captureScreenArgs](c)
	t := desktop.Target{Active: a.Window == "active", Monitor: a.Monitor}
	if r := a.Region; r != nil {
		t.Region = &desktop.Rect{X: r.X, Y: r.Y, Width: r.Width, Height: r.Height}
	}
	format := a.Format
	if format == "" {
		format = "png"
	}
	img, err := systemDesktop(env).Capture(ctx, t)
	if err != nil {
		return nil, errmap.Desktop(err, "Capturing the screen")
	}
	w, h := img.Bounds().Dx(), img.Bounds().Dy()
	out := captureData{Format: format, SourceWidth: w, SourceHeight: h}
	budget := 0
	if a.Destination == "" {
		budget = base64.StdEncoding.DecodedLen(c.ResponseBudget(captureData{Format: format, Size: 1 << 40, Width: w, Height: h, SourceWidth: w, SourceHeight: h, Scale: 0.123456789}))
	}
	enc, err := desktop.Encode(img, format, a.MaxWidth, budget)
	if err != nil {
		return nil, errmap.Desktop(err, "Encoding the capture")
	}
	out.Size, out.Width, out.Height, out.Scale = len(enc.Data), enc.Width, enc.Height, enc.Scale
	c.Detail = map[string]any{"width": enc.Width, "height": enc.Height, "size": len(enc.Data)}
	if a.Destination != "" {
		path, perr := writeDestination(env, c, enc.Data)
		if perr != nil {
			return nil, perr
		}
		out.Path = path
		return out, nil
	}
	out.Content = base64.StdEncoding.EncodeToString(enc.Data)
	return out, nil
}
