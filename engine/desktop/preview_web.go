package desktop

import (
	"context"
	"os"
	"path"
	"time"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/launch"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/preview"
)

// Preview time to live: the default and the most a request may ask for.
const (
	previewTTL    = 15 * 60
	previewMaxTTL = 24 * 60 * 60
)

type previewWebArgs struct {
	// Path is a workspace folder, or an HTML file whose folder is served.
	Path string `json:"path"`
	// URL is an http(s) address to open instead, judged as
	// open_in_browser's is.
	URL  string `json:"url"`
	TTL  int64  `json:"ttl_s" jsonschema:"minimum=1,maximum=86400"`
	Open *bool  `json:"open"`
}

func (a *previewWebArgs) Validate() error {
	if (a.Path == "") == (a.URL == "") {
		return envelope.ArgumentError("Give exactly one of path (a workspace folder or HTML file) and url.")
	}
	return nil
}

// previewData is preview_web's data.
type previewData struct {
	URL    string `json:"url"`
	Opened bool   `json:"opened"`
	// Pending and Launcher: the opener was still running after its wait
	// (launch.Launched).
	Pending  bool   `json:"pending,omitzero"`
	Launcher string `json:"launcher,omitzero"`
	Folder   string `json:"folder,omitempty"`
	Expires  string `json:"expires_at,omitempty"`
	Reused   bool   `json:"reused"`
	// OpenError says why the URL was not opened when it was asked to be
	// (no program to open URLs on this machine).
	OpenError string `json:"open_error,omitempty"`
}

func init() {
	action.Register(action.Spec{
		Name:    "preview_web",
		Rules:   []action.Rule{action.Absolute("path"), action.ExactlyOne(action.Given("path"), action.Given("url"))},
		NewArgs: func() any { return &previewWebArgs{} },
		Facts: func(ctx context.Context, env *action.Env, c *action.Call) *protocol.Error {
			a := action.Args[previewWebArgs](c)
			if a.URL != "" {
				_, perr := action.URLFacts(ctx, c, a.URL)
				return perr
			}
			_, perr := c.Path(env, "target", a.Path)
			return perr
		},
		Run: previewWeb,
	})
}

// previewWeb opens a judged URL, or finds or starts the folder's preview
// server and opens (or returns) its URL.
func previewWeb(ctx context.Context, env *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[previewWebArgs](c)
	open := a.Open == nil || *a.Open
	if a.URL != "" {
		u := action.CheckedURL(c).Normalized
		d := previewData{URL: u}
		openURL(ctx, env, open, &d)
		return d, nil
	}
	s, page, perr := previewSpec(env, c, c.Paths["target"], a.TTL)
	if perr != nil {
		return nil, perr
	}
	exe, err := os.Executable()
	if env.Self != "" {
		exe, err = env.Self, nil
	}
	if err != nil {
		return nil, protocol.Wrap(protocol.SkillRuntimeUnavailable, err, "DeskBridge cannot find its own program to start the preview server.")
	}
	in, reused, err := preview.Start(ctx, exe, s)
	if err != nil {
		return nil, protocol.Wrap(protocol.ExecutionFailed, err, "The preview server did not start; the details are in the host log.")
	}
	d := previewData{URL: in.URL() + page, Folder: path.Join(c.Paths["target"].WorkspaceRoot, s.Folder), Expires: in.Expires.Format(time.RFC3339), Reused: reused}
	openURL(ctx, env, open, &d)
	c.Detail = map[string]any{"reused": reused, "opened": d.Opened}
	return d, nil
}

// previewSpec is the server spec of the target: its folder (the file's
// folder for a file) and the page to open in it, served to c's caller
// under the configuration and policy this host decides with.
func previewSpec(env *action.Env, c *action.Call, p facts.Path, ttl int64) (preview.Spec, string, *protocol.Error) {
	if !p.Inside {
		return preview.Spec{}, "", protocol.Errorf(protocol.WorkspaceViolation, "The path is outside the allowed workspace.")
	}
	if !p.Exists {
		return preview.Spec{}, "", protocol.Errorf(protocol.FileNotFound, "The folder or file to preview does not exist.")
	}
	folder, page := p.Relative, ""
	if p.Type != facts.TypeFolder {
		folder, page = path.Dir(p.Relative), path.Base(p.Relative)
	}
	if folder == "" {
		folder = "."
	}
	if ttl <= 0 {
		ttl = previewTTL
	}
	s := preview.Spec{StateDir: env.Config.StateFolder(), WorkspaceName: p.Workspace, WorkspaceRoot: p.WorkspaceRoot,
		Folder: folder, TTL: min(ttl, previewMaxTTL), Origin: c.Origin, Channel: c.Channel,
		ConfigSource: env.Info.ConfigSource, ConfigHash: env.Info.ConfigHash, PolicyHash: env.Info.PolicyHash,
		Origins: previewOrigins(env, p.WorkspaceRoot)}
	return s, page, nil
}

// previewOrigins are the preview_origins of the workspace whose root is
// root: what its preview's page may load from besides itself.
func previewOrigins(env *action.Env, root string) []string {
	for _, w := range env.Config.Workspaces {
		if w.Path == root {
			return w.PreviewOrigins
		}
	}
	return nil
}

// openURL opens d.URL in the browser when open is set. An opener that
// is missing or fails (a machine without a desktop: "www-browser: not
// found") is not a failure of the action: the server runs and the
// caller, a browser, can open the URL itself; opened stays false and
// open_error says why.
func openURL(ctx context.Context, env *action.Env, open bool, d *previewData) {
	if !open {
		return
	}
	l, perr := launch.OpenURL(ctx, env, d.URL)
	if perr != nil {
		d.OpenError = perr.Message
		return
	}
	d.Opened, d.Pending, d.Launcher = l.Opened, l.Pending, l.Launcher
}
