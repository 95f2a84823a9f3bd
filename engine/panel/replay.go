package panel

import (
	"net/http"
	"path/filepath"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/policy"
)

// replayLog re-evaluates the whole log, against the policy that decided
// each decision or, with ?policy=PATH (an absolute folder of .rego files
// or a bundle), against a candidate, and shows replay's report page: what
// would change. It is what `deskbridge replay --html` writes; the policy is
// evaluated with the host's restricted builtins, so a candidate reaches
// no network.
func (p *Server) replayLog(w http.ResponseWriter, r *http.Request) {
	opts := replay.Options{Store: policy.StoreDir(p.spec.LogPath)}
	if path := r.URL.Query().Get("policy"); path != "" {
		if !filepath.IsAbs(path) {
			http.Error(w, "The candidate policy must be an absolute folder or bundle path.", http.StatusBadRequest)
			return
		}
		src, err := policy.Open(path)
		if err != nil {
			http.Error(w, "The candidate policy could not be read: "+err.Error(), http.StatusBadRequest)
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
