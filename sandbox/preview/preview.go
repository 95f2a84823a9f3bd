// Package preview serves a workspace folder to the browser for
// preview_web: a detached deskbridge process (package localserve) that
// answers GET and HEAD below its token with the folder's files. It is a
// second way out of the host for workspace content, so it stands behind
// the same wall as read_file:
//
//   - every file it serves is judged by the caller's Judge, which the
//     engine makes: the request read_file {path} of the preview's caller,
//     decided by the same configuration and policy, logged, with the
//     content check on the bytes; a refusal is 404 with no body;
//   - the file is read through the workspace's agent view (package
//     wsview), so that .git, secrets, ignored files and links answer 404
//     exactly as the agent never sees them;
//   - a server belongs to one caller, folder, configuration and policy
//     (its Key holds their hashes), and stops as soon as the configuration
//     or the policy on disk is no longer what it started from (Wall.Stale).
//
// There is no directory listing: a folder answers its index.html or 404.
//
// Live reload: every HTML page served gets a small inline script that
// listens to the server's own event stream (LiveName, below the token: no
// other port), which says "reload" when a file of the served folder
// changes (inotify and its kin, through fsnotify). The
// Content-Security-Policy is localserve's default, 'self' only, plus the
// origins the workspace's configuration names (preview_origins) for
// stylesheets, scripts, fonts and images.
package preview

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/sandbox/localserve"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

// Kind names preview servers in the state folder.
const Kind = "preview"

// Subcommand is the deskbridge subcommand that runs a preview server.
const Subcommand = "preview-serve"

// Spec is what a preview server serves, and for whom, passed to its
// process as JSON.
type Spec struct {
	StateDir      string `json:"state_dir"`
	WorkspaceName string `json:"workspace_name"`
	WorkspaceRoot string `json:"workspace_root"`
	// Folder is the served folder relative to the workspace root,
	// "/"-separated ("." for the root).
	Folder string `json:"folder"`
	TTL    int64  `json:"ttl_s"`
	// Origin and Channel are the caller of preview_web, whose read_file
	// every served file is judged as.
	Origin  string `json:"origin"`
	Channel string `json:"channel"`
	// ConfigSource is the configuration file the server loads; ConfigHash
	// and PolicyHash are the hashes of the configuration and policy the
	// host that started it decided with: the server refuses to start with
	// others, and stops when the files on disk no longer hash to them.
	ConfigSource string `json:"config_source"`
	ConfigHash   string `json:"config_hash"`
	PolicyHash   string `json:"policy_hash"`
	// Origins are the workspace's preview_origins, which the page may
	// load stylesheets, scripts, fonts and images from (CSP).
	Origins []string `json:"origins,omitempty"`
}

// CSP is the Content-Security-Policy of a preview whose page may load
// from origins besides its own: localserve's default with each origin
// added to style-src, script-src, font-src and img-src (connect-src,
// frames and forms stay 'self'). The origins are checked by the
// configuration (bare http(s) origins, no quote or separator).
func CSP(origins []string) string {
	if len(origins) == 0 {
		return localserve.DefaultCSP
	}
	extra := " " + strings.Join(origins, " ")
	parts := strings.Split(localserve.DefaultCSP, "; ")
	for i, p := range parts {
		for _, d := range []string{"script-src ", "style-src ", "img-src ", "font-src "} {
			if strings.HasPrefix(p, d) {
				parts[i] = p + extra
			}
		}
	}
	return strings.Join(parts, "; ")
}

// Key is the instance key of the spec: one server per served folder,
// caller, configuration and policy. A changed configuration or policy
// names another server, never the running one.
func (s Spec) Key() string {
	return strings.Join([]string{s.folderKey(), s.Channel, s.Origin, s.ConfigHash, s.PolicyHash}, "\x00")
}

// folderKey is the part of the key that names the served folder.
func (s Spec) folderKey() string { return s.WorkspaceRoot + "\x00" + s.Folder }

// ParseSpec decodes a spec as Start passes it.
func ParseSpec(specJSON string) (Spec, error) {
	var s Spec
	if err := json.Unmarshal([]byte(specJSON), &s); err != nil {
		return s, err
	}
	if s.TTL <= 0 {
		return s, errors.New("preview: no time to live")
	}
	return s, nil
}

// Start returns the running server of spec, or starts one by running exe
// with Subcommand; reused says it was running already. Every other
// preview server of the state folder is asked its liveness check first,
// so that one started from another configuration or policy (Wall.Stale)
// stops now rather than at its next page.
func Start(ctx context.Context, exe string, s Spec) (in localserve.Instance, reused bool, err error) {
	key := s.Key()
	for _, other := range localserve.List(s.StateDir, Kind) {
		if other.Key != key {
			localserve.Ping(ctx, other)
		}
	}
	if in, ok := localserve.Find(ctx, s.StateDir, Kind, key); ok {
		return in, true, nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return in, false, err
	}
	in, err = localserve.Start(ctx, exe, []string{Subcommand, string(b)})
	return in, false, err
}

// Judge decides whether the workspace file rel ("/"-separated, relative
// to the workspace root) may be served, and returns the bytes to serve:
// it judges the read as the read_file of that path, calls read for the
// bytes (at most limit of them; a longer file is ErrTooLarge), checks
// them, and logs what it decided. An error means the file is not served.
type Judge func(ctx context.Context, rel string, read func(limit int64) ([]byte, error)) ([]byte, error)

// ErrTooLarge reports a file longer than the limit a Judge read it with.
var ErrTooLarge = errors.New("preview: the file is larger than the limit")

// Wall is what a preview server judges with, made by the engine from the
// configuration and policy the spec names.
type Wall struct {
	// Classifier is the host's classifier of sensitive names, for the
	// agent view the files are read through.
	Classifier wsview.Classifier
	// Judge judges every file before it is served.
	Judge Judge
	// Stale reports that the configuration or policy on disk is no longer
	// what the server started from (localserve.Options.Stale).
	Stale func() bool
}

// Run is the server process: it listens, announces its instance on
// stdout, and serves until the time to live has passed or the wall goes
// stale.
func Run(ctx context.Context, s Spec, wall Wall) error {
	v, err := wsview.Open(s.WorkspaceName, s.WorkspaceRoot, wall.Classifier)
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
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	live := NewLive()
	live.Watch(ctx, filepath.Join(s.WorkspaceRoot, filepath.FromSlash(s.Folder))) // without it, pages are served without reload
	h := Handler{View: v, Base: s.Folder, Judge: wall.Judge, Live: live}
	return localserve.Serve(ctx, s.StateDir, ln, in, h, localserve.Options{Stale: wall.Stale, CSP: CSP(s.Origins)})
}

// Handler serves the files of the folder Base of View, each once Judge
// has passed it.
type Handler struct {
	View  *wsview.View
	Base  string
	Judge Judge
	// Live, when set, serves LiveName and gets its script into every
	// HTML page.
	Live *Live
}

// ServeHTTP answers a file, a folder's index.html, or 404 with no body.
func (h Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h.Live != nil && r.URL.Path == LiveName {
		h.Live.ServeHTTP(w, r)
		return
	}
	rel := Target(h.Base, r.URL.Path)
	if h.isDir(rel) {
		rel = path.Join(rel, "index.html")
	}
	body, err := h.Judge(r.Context(), rel, func(limit int64) ([]byte, error) { return h.read(rel, limit) })
	if err != nil {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	if h.Live != nil && isHTML(rel) {
		body = injectLive(body)
	}
	http.ServeContent(w, r, path.Base(rel), time.Time{}, bytes.NewReader(body))
}

// isDir reports whether the view opens rel as a folder.
func (h Handler) isDir(rel string) bool {
	f, _, err := h.View.OpenFile(rel)
	if f != nil {
		f.Close()
	}
	return errors.Is(err, wsview.ErrIsDir)
}

// read reads the file rel through the view, at most limit bytes.
func (h Handler) read(rel string, limit int64) ([]byte, error) {
	f, _, err := h.View.OpenFile(rel)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = ErrTooLarge
	}
	return b, err
}

// Target maps a request's path to the workspace-relative path it names
// in the folder base: the path is cleaned as if rooted, so no ".." in it
// can climb out of base.
func Target(base, urlPath string) string {
	return path.Join(base, path.Clean("/" + urlPath)[1:])
}
