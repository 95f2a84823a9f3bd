package urlfacts

// These tests judge the facts this package produces with the shipped
// network policy (rego/network.rego), as the host will: facts in, denials out.

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"

	"github.com/deskbridge/deskbridge/internal/testkit/corpus"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/netguard"
)

const (
	policyFile = "../../rego/network.rego"
	policyTest = "../../rego/network_test.rego"
)

func TestRegoNetworkTests(t *testing.T) {
	results, err := tester.Run(context.Background(), policyFile, policyTest)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) == 0 {
		t.Fatal("no Rego tests ran")
	}
	for _, r := range results {
		if !r.Pass() {
			t.Errorf("%s.%s: fail=%v error=%v", r.Package, r.Name, r.Fail, r.Error)
		}
	}
}

// mapResolver answers names from a table and fails for any other.
type mapResolver map[string][]netip.Addr

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := m[host]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("lookup %s: no such host", host)
}

// denials evaluates the network policy for action on facts under config
// and returns the codes of its denials.
func denials(t *testing.T, action string, f Facts, config map[string]any) map[protocol.Code]bool {
	t.Helper()
	src, err := os.ReadFile(policyFile)
	if err != nil {
		t.Fatal(err)
	}
	var urlDoc any
	b, _ := json.Marshal(f)
	json.Unmarshal(b, &urlDoc)
	input := map[string]any{"request": map[string]any{"action": action}, "url": urlDoc}
	rs, err := rego.New(
		rego.Query("data.deskbridge.policies.builtin.deny"),
		rego.Module("network.rego", string(src)),
		rego.Store(inmem.NewFromObject(map[string]any{"config": config})),
		rego.Input(input),
	).Eval(context.Background())
	if err != nil || len(rs) != 1 {
		t.Fatalf("eval: %v (%d results)", err, len(rs))
	}
	out := map[protocol.Code]bool{}
	for _, d := range rs[0].Expressions[0].Value.([]any) {
		out[protocol.Code(d.(map[string]any)["code"].(string))] = true
	}
	return out
}

// attack is one case of the shared URL attack corpus.
type attack = corpus.URLAttack

// loadAttacks reads the one list of tricky addresses that every layer is
// checked against.
func loadAttacks(t *testing.T) []attack { return corpus.URLAttacks(t) }

// decide gathers facts for raw and returns the code that stops it: the
// parser's own, or the policy's.
func decide(t *testing.T, raw string, r Resolver) protocol.Code {
	t.Helper()
	f, _, err := Gather(context.Background(), raw, r)
	if err != nil {
		return codeOf(err)
	}
	codes := denials(t, "download_asset", f, map[string]any{})
	for _, c := range []protocol.Code{protocol.UnsupportedProtocol, protocol.InvalidURL, protocol.PrivateNetworkBlocked} {
		if codes[c] {
			return c
		}
	}
	return ""
}

func TestAttacksThroughParserAndPolicy(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndexByte(srv.URL, ':')+1:]
	for _, a := range loadAttacks(t) {
		t.Run(a.Name+"/literal", func(t *testing.T) {
			if got := decide(t, strings.ReplaceAll(a.URL, "PORT", port), mapResolver{}); string(got) != a.Want {
				t.Fatalf("code = %q, want %s", got, a.Want)
			}
			if hits.Load() != 0 {
				t.Fatal("loopback server received a request")
			}
		})
		if a.ResolvesTo == "" {
			continue
		}
		t.Run(a.Name+"/resolved", func(t *testing.T) {
			r := mapResolver{"victim.test": {netip.MustParseAddr(a.ResolvesTo)}}
			if got := decide(t, "http://victim.test:"+port+"/", r); got != protocol.PrivateNetworkBlocked {
				t.Fatalf("code = %q, want PRIVATE_NETWORK_BLOCKED", got)
			}
			if hits.Load() != 0 {
				t.Fatal("loopback server received a request")
			}
		})
	}
}

func TestPublicURLAllowed(t *testing.T) {
	r := mapResolver{"example.com": {netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("2606:2800:21f:cb07:6820:80da:af6b:8b2c")}}
	if got := decide(t, "https://example.com/logo.png", r); got != "" {
		t.Fatalf("public URL denied with %s", got)
	}
}

func TestMixedRecordsDenied(t *testing.T) {
	r := mapResolver{"mixed.test": {netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("10.0.0.5")}}
	if got := decide(t, "https://mixed.test/", r); got != protocol.PrivateNetworkBlocked {
		t.Fatalf("code = %q, want PRIVATE_NETWORK_BLOCKED", got)
	}
}

// TestGoAndRegoAgree checks that netguard.Policy (enforced at dial time)
// and the Rego policy (deciding up front) open exactly the same addresses.
func TestGoAndRegoAgree(t *testing.T) {
	addrs := []string{
		"8.8.8.8", "127.0.0.1", "127.0.0.2", "::1", "10.20.1.1", "10.21.1.1", "::ffff:10.20.1.1",
		"169.254.1.1", "169.254.169.254", "100.100.100.200", "100.64.0.1", "0.0.0.0", "::",
		"fe80::1", "fd12::1", "fd00:ec2::254", "64:ff9b::a14:101", "224.0.0.1", "240.0.0.1",
		"192.0.2.1", "198.18.0.1", "192.0.0.8", "255.255.255.255", "0.1.2.3", "2002:a14:101::",
	}
	configs := [][]string{
		nil, {"10.20.0.0/16"}, {"127.0.0.1/32"}, {"0.0.0.0/0", "::/0"}, {"169.254.0.0/16"},
		{"169.254.169.254/32"}, {"100.64.0.0/10"}, {"fd00::/8"}, {"fe80::/10"}, {"0.0.0.0/32"},
	}
	for _, cidrs := range configs {
		p, err := netguard.ParsePolicy(cidrs)
		if err != nil {
			t.Fatal(err)
		}
		cfg := map[string]any{"network": map[string]any{"allow_private": toAny(cidrs)}}
		for _, s := range addrs {
			a := netip.MustParseAddr(s)
			f := Facts{Scheme: "https", IPs: []IPFact{}}
			addAddr(&f, a)
			regoAllows := !denials(t, "download_asset", f, cfg)[protocol.PrivateNetworkBlocked]
			if goAllows := p.Allowed(a); goAllows != regoAllows {
				t.Errorf("%s under %v: Go allows=%v, Rego allows=%v", s, cidrs, goAllows, regoAllows)
			}
		}
	}
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
