package desktop

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/launch"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/browser"
)

type openURLArgs struct {
	URL string `json:"url" jsonschema:"required,minLength=1"`
}

// openURLData is open_in_browser's data.
type openURLData struct {
	URL string `json:"url"`
	// Opened, Pending and Launcher: what the opener said (launch.Launched).
	Opened   bool   `json:"opened"`
	Pending  bool   `json:"pending,omitzero"`
	Launcher string `json:"launcher,omitzero"`
}

func init() {
	action.Register(action.Spec{
		Name:    "open_in_browser",
		NewArgs: func() any { return &openURLArgs{} },
		Facts: func(ctx context.Context, _ *action.Env, c *action.Call) *protocol.Error {
			_, perr := action.URLFacts(ctx, c, action.Args[openURLArgs](c).URL)
			return perr
		},
		Run: openInBrowser,
	})
}

// openInBrowser hands the normalised URL the policy judged to the opener.
func openInBrowser(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	o := env.Opener
	if o == nil {
		o = browser.System(cmdfacts.Native().Dirs)
	}
	u := action.CheckedURL(c).Normalized
	l, err := launch.Result(browser.Open(ctx, o, u))
	if err != nil {
		return nil, errmap.Browser(err)
	}
	return openURLData{URL: u, Opened: l.Opened, Pending: l.Pending, Launcher: l.Launcher}, nil
}
