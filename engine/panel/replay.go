package panel

import (
	"net/http"
	"os"
	"path/filepath"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/policy"
)

// replayLog re-evaluates the whole log, against the policy that decided
// each decision or, with ?policy=PATH, against a candidate (candidate),
// and shows replay's report page: what would change. It is what `deskbridge replay --html` writes; the policy is
// evaluated with the host's restricted builtins, so a candidate reaches
// no network.
func (p *Server) replayLog(w http.ResponseWriter, r *http.Request) {
	opts := replay.Options{Store: policy.StoreDir(p.spec.LogPath)}
	if path := r.URL.Query().Get("policy"); path != "" {
		src, ok := p.candidate(path)
		if !ok {
			http.Error(w, candidateError, http.StatusBadRequest)
			return
		}
		opts.Policy = src
	}
	rep, err := replay.Run(r.Context(), decisionlog.Read(p.spec.LogPath), opts)
	if err != nil {
		http.Error(w, "The log could not be replayed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	rep.WriteHTML(w)
}

// candidateError is the one answer to every candidate policy the panel
// does not replay against: a path outside the places it accepts, a
// missing one, one that does not read as a policy. One answer for all, so
// that the panel tells no one whether a file exists or what it holds.
const candidateError = "The candidate policy must be the configured policy (folder or bundle) or a folder of .rego files inside a configured workspace, and must read as a policy."

// candidate reads the candidate policy at path if the panel accepts it:
// the configured policy folder or bundle, or a folder inside a configured
// workspace, named by an absolute path and judged after its links are
// followed.
func (p *Server) candidate(path string) (*policy.Source, bool) {
	if !filepath.IsAbs(path) {
		return nil, false
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil || !p.acceptsCandidate(real) {
		return nil, false
	}
	src, err := policy.Open(real)
	return src, err == nil
}

// acceptsCandidate reports whether real (a path with no links) is the
// configured policy or a folder inside a configured workspace.
func (p *Server) acceptsCandidate(real string) bool {
	if p.spec.PolicySource != "" && real == canonical(p.spec.PolicySource) {
		return true
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return false
	}
	for _, ws := range p.spec.Workspaces {
		if rel, err := filepath.Rel(canonical(ws.Path), real); err == nil && filepath.IsLocal(rel) {
			return true
		}
	}
	return false
}

// canonical is p with its links followed, or a NUL (which names no path)
// when that fails.
func canonical(p string) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "\x00"
	}
	return real
}
