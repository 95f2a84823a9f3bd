package engine

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
	"github.com/deskbridge/deskbridge/policy"
)

// redirectHost is resolveHost with network.allow_private opening
// 127.0.0.1 (the loopback server the downloads come from) and a loopback
// server that redirects /to-NAME to http://NAME:port/a.png?token=CANARY-hop
// and serves /a.png; the resolver answers every name in names with
// 127.0.0.1, so a name that is looked up can be downloaded from.
func redirectHost(t *testing.T, names ...string) (*testHost, *steps, string) {
	t.Helper()
	loop := netip.MustParseAddr("127.0.0.1")
	answers := map[string][]netip.Addr{}
	for _, n := range names {
		answers[n] = []netip.Addr{loop}
	}
	th := newTestHost(t, map[string]any{
		"policy":  map[string]any{"dir": policyDir(t, map[string]string{"corp.rego": corpDomain})},
		"network": map[string]any{"allow_private": []string{"127.0.0.1/32"}},
	})
	st := &steps{}
	th.h.decider = orderDecider{Decider: th.h.decider, steps: st}
	th.h.env.Resolver = recordingResolver{answers: answers, steps: st}
	png := append([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), bytes.Repeat([]byte{0}, 64)...)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if name, ok := strings.CutPrefix(r.URL.Path, "/to-"); ok {
			_, port, _ := net.SplitHostPort(r.Host)
			http.Redirect(w, r, "http://"+name+":"+port+"/a.png?token=CANARY-hop", http.StatusFound)
			return
		}
		w.Write(png)
	}))
	t.Cleanup(srv.Close)
	return th, st, srv.URL
}

// hopURL is input.url of the logged decision ev.
func hopURL(ev map[string]any) map[string]any {
	u, _ := ev["input"].(map[string]any)["url"].(map[string]any)
	return u
}

// TestRedirectToDeniedNameIsNeverResolved: a download whose server
// redirects to a name the team's policy denies by domain is refused by
// that rule before the name is looked up (the query would carry
// <data> to attacker.example), the hop's decision is logged as one of
// the request with the hop's URL (masked) in input.url, and nothing is
// written.
func TestRedirectToDeniedNameIsNeverResolved(t *testing.T) {
	denied := "c2VjcmV0LWRhdGE.attacker.example"
	th, st, base := redirectHost(t, strings.ToLower(denied))
	r := th.callID(t, "hop", "download_asset", map[string]any{"url": base + "/to-" + denied, "destination": filepath.Join(th.ws, "a.png")})
	mustCode(t, r, "PERMISSION_DENIED")
	if r.Error.Rule != "corp.domain" {
		t.Fatalf("rule %q, want the team's corp.domain: %s", r.Error.Rule, r.Error.Message)
	}
	if names := st.lookups(); len(names) != 0 {
		t.Fatalf("the denied redirect's name was looked up: %q (steps: %s)", names, st)
	}
	evs := loggedEvents(t, th.logPath, "hop")
	phases := make([]string, len(evs))
	for i, ev := range evs {
		phases[i] = fmt.Sprint(ev["phase"], ":", ev["outcome"])
	}
	if got := strings.Join(phases, " "); got != "decision:OK outcome:OK decision:PERMISSION_DENIED outcome:PERMISSION_DENIED" {
		t.Fatalf("logged %s, want the request's decision, then the hop's refusal", got)
	}
	if d, _ := evs[1]["detail"].(map[string]any); d["redirect"] != float64(1) {
		t.Errorf("the first decision's outcome does not say it redirected: %v", evs[1])
	}
	u := hopURL(evs[2])
	if u["ascii_host"] != strings.ToLower(denied) || u["redirects"] != float64(1) || !strings.Contains(fmt.Sprint(u["redirect_from"]), "127.0.0.1") || u["ips"] != nil {
		t.Fatalf("the hop's logged input.url %v, want the hop's name without addresses, redirect_from and redirects", u)
	}
	if b, _ := os.ReadFile(th.logPath); strings.Contains(string(b), "CANARY") {
		t.Error("the hop URL's secret reached the decision log")
	}
	if entries, _ := os.ReadDir(th.ws); len(entries) != 0 {
		t.Errorf("a refused download left %d entries", len(entries))
	}
}

// TestRedirectToAllowedNameIsJudgedThenFetched: a redirect to a name the
// policy allows is decided without addresses, looked up, decided on its
// addresses and fetched from them; all three decisions of the request are
// logged with its request_id, and replay reproduces each.
func TestRedirectToAllowedNameIsJudgedThenFetched(t *testing.T) {
	th, st, base := redirectHost(t, "assets.example")
	mustCode(t, th.callID(t, "ok", "download_asset", map[string]any{"url": base + "/to-assets.example", "destination": filepath.Join(th.ws, "a.png")}), "ok")
	if got, want := st.String(), "decide+ips, decide, lookup assets.example, decide+ips"; got != want {
		t.Fatalf("steps %q, want %q", got, want)
	}
	evs := loggedEvents(t, th.logPath, "ok")
	if len(evs) != 6 || evs[5]["outcome"] != decisionlog.OutcomeOK {
		t.Fatalf("logged %d events (%v), want three decisions with their outcomes", len(evs), evs)
	}
	if u := hopURL(evs[4]); u["ascii_host"] != "assets.example" || u["ips"] == nil || u["redirects"] != float64(1) {
		t.Fatalf("the hop's second decision judged %v", u)
	}
	if _, err := os.Stat(filepath.Join(th.ws, "a.png")); err != nil {
		t.Fatal(err)
	}
	th.h.Close()
	rep, err := replay.Run(context.Background(), decisionlog.Read(th.logPath), replay.Options{Store: policy.StoreDir(th.logPath)})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != 3 || rep.Same != 3 {
		t.Errorf("replay: %d decisions, %d the same (changed %v, unreplayable %v), want three the same", rep.Total, rep.Same, rep.Changed, rep.Unreplayable)
	}
}
