// Package preview serves a workspace folder to the browser for
// preview_web: a detached deskbridge process (package localserve) that
// answers GET and HEAD below its token with the folder's files, read
// through the workspace's agent view (package wsview), so that .git,
// secrets, ignored files and links answer 404 exactly as the agent never
// sees them. There is no directory listing: a folder answers its
// index.html or 404.
package preview

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/localserve"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

// Kind names preview servers in the state folder.
const Kind = "preview"

// Subcommand is the deskbridge subcommand that runs a preview server.
const Subcommand = "preview-serve"

// Spec is what a preview server serves, passed to its process as JSON.
type Spec struct {
	StateDir      string `json:"state_dir"`
	WorkspaceName string `json:"workspace_name"`
	WorkspaceRoot string `json:"workspace_root"`
	// Folder is the served folder relative to the workspace root,
	// "/"-separated ("." for the root).
	Folder string `json:"folder"`
	TTL    int64  `json:"ttl_s"`
	// Secret and Executes are the configuration's extra sensitivity
	// patterns, for the server's classifier.
	Secret   []string `json:"secret,omitempty"`
	Executes []string `json:"executes,omitempty"`
}

// Key is the instance key of the spec: one server per served folder.
func (s Spec) Key() string { return s.WorkspaceRoot + "\x00" + s.Folder }

// Start returns the running server of spec's folder, or starts one by
// running exe with Subcommand; reused says it was running already.
func Start(ctx context.Context, exe string, s Spec) (in localserve.Instance, reused bool, err error) {
	if in, ok := localserve.Find(ctx, s.StateDir, Kind, s.Key()); ok {
		return in, true, nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return in, false, err
	}
	in, err = localserve.Start(ctx, exe, []string{Subcommand, string(b)})
	return in, false, err
}

// Run is the server process: it listens, announces its instance on
// stdout, and serves until the time to live has passed. newCls makes the
// classifier of the spec's sensitivity patterns (the host's own).
func Run(ctx context.Context, specJSON string, newCls func(secret, executes []string) wsview.Classifier) error {
	var s Spec
	if err := json.Unmarshal([]byte(specJSON), &s); err != nil {
		return err
	}
	if s.TTL <= 0 {
		return errors.New("preview: no time to live")
	}
	v, err := wsview.Open(s.WorkspaceName, s.WorkspaceRoot, newCls(s.Secret, s.Executes))
	if err != nil {
		return err
	}
	defer v.Close()
	ln, in, err := localserve.Listen(s.StateDir, Kind, s.Key(), time.Duration(s.TTL)*time.Second)
	if err != nil {
		return err
	}
	if err := localserve.Announce(os.Stdout, in); err != nil {
		ln.Close()
		return err
	}
	os.Stdout.Close()
	return localserve.Serve(ctx, s.StateDir, ln, in, Handler{View: v, Base: s.Folder}, "")
}

// Handler serves the files of the folder Base of View.
type Handler struct {
	View *wsview.View
	Base string
}

// ServeHTTP answers a file, a folder's index.html, or 404.
func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rel := Target(h.Base, r.URL.Path)
	f, fi, err := h.View.OpenFile(rel)
	if errors.Is(err, wsview.ErrIsDir) {
		f, fi, err = h.View.OpenFile(path.Join(rel, "index.html"))
	}
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	http.ServeContent(w, r, fi.Name(), fi.ModTime(), f)
}

// Target maps a request's path to the workspace-relative path it names
// in the folder base: the path is cleaned as if rooted, so no ".." in it
// can climb out of base.
func Target(base, urlPath string) string {
	return path.Join(base, path.Clean("/" + urlPath)[1:])
}
