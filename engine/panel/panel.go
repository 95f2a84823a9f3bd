// Package panel is the open_deskbridge control panel: a read-only page
// served by a detached `deskbridge panel-serve` process on 127.0.0.1
// below an unguessable token (package localserve), with every asset
// embedded and no script: status and version, workspaces, skills and why
// each is on or off, the policy and its test status, the decision log
// (recent decisions with filters, one decision's input and result, chain
// verification) and a chart of decisions over time by outcome.
package panel

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/sandbox/localserve"
)

// Kind names panel servers in the state folder; there is one per state
// folder.
const Kind = "panel"

// Subcommand is the deskbridge subcommand that runs the panel.
const Subcommand = "panel-serve"

// Spec is what the panel shows, passed to its process as JSON by the
// host that starts it.
type Spec struct {
	StateDir       string      `json:"state_dir"`
	LogPath        string      `json:"log_path"`
	TTL            int64       `json:"ttl_s"`
	Version        string      `json:"version"`
	ConfigSource   string      `json:"config_source"`
	ConfigHash     string      `json:"config_hash"`
	PolicyRevision string      `json:"policy_revision"`
	PolicyHash     string      `json:"policy_hash"`
	PolicySource   string      `json:"policy_source"` // "" for the embedded policy
	Workspaces     []Workspace `json:"workspaces"`
	// Skills are not passed: the panel's process works out its own
	// (Run's skills), so that what it shows is true of the process that
	// serves it, not of the host that started it.
	Skills  []Skill         `json:"-"`
	Origins []string        `json:"origins"`
	Extra   json.RawMessage `json:"extra,omitempty"`
}

// Workspace is one configured workspace.
type Workspace struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// Skill is one skill with whether it is on and why.
type Skill struct {
	Name    string   `json:"name"`
	On      bool     `json:"on"`
	Why     string   `json:"why"`
	Actions []string `json:"actions"`
	Built   int      `json:"built"`
}

// Start returns the running panel of the state folder, or starts one by
// running exe with Subcommand.
func Start(ctx context.Context, exe string, s Spec) (localserve.Instance, bool, error) {
	if in, ok := localserve.Find(ctx, s.StateDir, Kind, s.StateDir); ok {
		return in, true, nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return localserve.Instance{}, false, err
	}
	in, err := localserve.Start(ctx, exe, []string{Subcommand, string(b)})
	return in, false, err
}

// ParseSpec decodes a spec as Start passes it.
func ParseSpec(specJSON string) (Spec, error) {
	var s Spec
	if err := json.Unmarshal([]byte(specJSON), &s); err != nil {
		return s, err
	}
	if s.TTL <= 0 {
		return s, errors.New("panel: no time to live")
	}
	return s, nil
}

// Run is the panel process: it listens, announces its instance on out,
// runs the policy's tests once in the background, and serves until the
// time to live has passed. s.Skills are the skills as this process finds
// them (the engine works them out as get_status does).
func Run(ctx context.Context, s Spec, out io.WriteCloser) error {
	ln, in, err := localserve.Listen(s.StateDir, Kind, s.StateDir, time.Duration(s.TTL)*time.Second)
	if err != nil {
		return err
	}
	if err := localserve.Announce(out, in); err != nil {
		ln.Close()
		return err
	}
	out.Close()
	p := NewServer(s, "/"+in.Token+"/")
	p.admin = in.Admin
	go p.runPolicyTests(ctx)
	return localserve.Serve(ctx, s.StateDir, ln, in, p, localserve.Options{})
}

// Server renders the panel's pages.
type Server struct {
	spec     Spec
	base     string // the panel's path, "/TOKEN/", for its cookie
	admin    string // the instance's Admin secret, which a ticket request carries
	mu       sync.Mutex
	tests    string               // the policy test status
	tickets  map[string]time.Time // unspent one-time tickets and their expiry
	sessions map[string]bool
	mux      *http.ServeMux
}

//go:embed page.html
var assets embed.FS

// page is the page template, parsed on first use (not at start-up: the
// host that links this package starts for every one-shot message).
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page.html").Funcs(template.FuncMap{
		"since": func(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") },
	}).ParseFS(assets, "page.html"))
})

// NewServer returns the panel's handler for s, served below base.
func NewServer(s Spec, base string) *Server {
	p := &Server{spec: s, base: base, tests: "running…", tickets: map[string]time.Time{}, sessions: map[string]bool{}}
	p.mux = http.NewServeMux()
	p.mux.HandleFunc("GET /{$}", p.session(p.home))
	p.mux.HandleFunc("GET /decision", p.session(p.decision))
	p.mux.HandleFunc("GET /replay", p.session(p.replayLog))
	p.mux.HandleFunc("GET /ticket", p.newTicket)
	p.mux.HandleFunc("GET /enter", p.enter)
	return p
}

// ServeHTTP implements http.Handler.
func (p *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.mux.ServeHTTP(w, r) }

// runPolicyTests runs the policy's own tests and records the result.
func (p *Server) runPolicyTests(ctx context.Context) {
	src := policy.Embedded()
	var err error
	if p.spec.PolicySource != "" {
		src, err = policy.Open(p.spec.PolicySource)
	}
	status := ""
	if err == nil {
		var rep policy.TestReport
		rep, err = policy.RunTests(ctx, src, false, io.Discard)
		status = testStatus(rep)
	}
	if err != nil {
		status = "could not run: " + err.Error()
	}
	p.mu.Lock()
	p.tests = status
	p.mu.Unlock()
}

// testStatus words a test report.
func testStatus(r policy.TestReport) string {
	if r.OK() {
		return "pass: " + itoa(r.Passed) + " tests"
	}
	return "FAIL: " + itoa(r.Failed) + " failed, " + itoa(r.Errored) + " errors, " + itoa(r.Passed) + " passed"
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// render writes the page with data.
func render(w http.ResponseWriter, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := page().Execute(w, data); err != nil {
		os.Stderr.WriteString("panel: " + err.Error() + "\n")
	}
}
