package urlfacts

import (
	"context"
	"encoding/json"
	"net/netip"
	"reflect"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

func TestFacts(t *testing.T) {
	r := mapResolver{
		"assets.example": {netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("10.0.0.5"), netip.MustParseAddr("93.184.215.14")},
		"mapped.example": {netip.MustParseAddr("::ffff:127.0.0.1")},
	}
	tests := []struct {
		raw  string
		want Facts
	}{
		{"https://Assets.Example:8443/img/a.png?x=1", Facts{
			Raw: "https://Assets.Example:8443/img/a.png?x=1", Normalized: "https://assets.example:8443/img/a.png?x=1",
			Scheme: "https", Host: "Assets.Example", ASCIIHost: "assets.example", Port: 8443, Path: "/img/a.png",
			IPs:     []IPFact{{IP: "93.184.215.14", Class: "public"}, {IP: "10.0.0.5", Class: "private"}},
			Classes: []string{"private", "public"},
		}},
		{"http://0x7f000001/", Facts{
			Raw: "http://0x7f000001/", Normalized: "http://127.0.0.1/", Scheme: "http", Host: "0x7f000001",
			ASCIIHost: "127.0.0.1", Port: 80, Path: "/", IsIPLiteral: true,
			IPs: []IPFact{{IP: "127.0.0.1", Class: "loopback"}}, Classes: []string{"loopback"},
		}},
		{"http://localhost.:3000/", Facts{
			Raw: "http://localhost.:3000/", Normalized: "http://localhost:3000/", Scheme: "http", Host: "localhost.",
			ASCIIHost: "localhost", Port: 3000, Path: "/",
			IPs:     []IPFact{{IP: "127.0.0.1", Class: "loopback"}, {IP: "::1", Class: "loopback"}},
			Classes: []string{"loopback"},
		}},
		{"http://mapped.example/", Facts{
			Raw: "http://mapped.example/", Normalized: "http://mapped.example/", Scheme: "http", Host: "mapped.example",
			ASCIIHost: "mapped.example", Port: 80, Path: "/",
			IPs:     []IPFact{{IP: "::ffff:127.0.0.1", Class: "loopback", Embedded: []string{"127.0.0.1"}}},
			Classes: []string{"loopback"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.raw, func(t *testing.T) {
			got, _, err := Gather(context.Background(), tt.raw, r)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("facts:\n got %+v\nwant %+v", got, tt.want)
			}
			if addrs := Addrs(got); len(addrs) != len(tt.want.IPs) || addrs[0].String() != tt.want.IPs[0].IP {
				t.Fatalf("Addrs() = %v, want the addresses of %v", addrs, tt.want.IPs)
			}
		})
	}
}

func TestFactsUnresolvable(t *testing.T) {
	_, _, err := Gather(context.Background(), "https://nowhere.example/", mapResolver{})
	if codeOf(err) != protocol.ExecutionFailed {
		t.Fatalf("err = %v, want EXECUTION_FAILED", err)
	}
	_, _, err = Gather(context.Background(), "https://empty.example/", mapResolver{"empty.example": {}})
	if codeOf(err) != protocol.ExecutionFailed {
		t.Fatalf("err = %v, want EXECUTION_FAILED", err)
	}
}

func TestFactsJSONNames(t *testing.T) {
	f, _, err := Gather(context.Background(), "http://127.0.0.1/", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(f)
	var m map[string]any
	json.Unmarshal(b, &m)
	for _, k := range []string{"raw", "normalized", "scheme", "host", "ascii_host", "port", "path", "is_ip_literal", "ips", "classes"} {
		if _, ok := m[k]; !ok {
			t.Errorf("facts JSON lacks %q: %s", k, b)
		}
	}
}

// TestNameFactsAskNobody: the first decision's facts of a name have no
// addresses and cost no query; an IP literal's and a localhost name's
// addresses are known without one; Resolve then asks for the name.
func TestNameFactsAskNobody(t *testing.T) {
	asked := countingResolver{mapResolver{"assets.example": {netip.MustParseAddr("93.184.215.14")}}, new(int)}
	for raw, resolved := range map[string]bool{"https://assets.example/a": false, "http://10.0.0.5/": true, "http://app.localhost:3000/": true} {
		u, err := Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		f := u.NameFacts()
		b, _ := json.Marshal(f)
		if Resolved(f) != resolved || strings.Contains(string(b), `"ips"`) != resolved {
			t.Errorf("%s: resolved %v, facts %s", raw, Resolved(f), b)
		}
	}
	u, _ := Parse("https://assets.example/a")
	f := u.NameFacts()
	if *asked.n != 0 {
		t.Fatal("NameFacts asked the resolver")
	}
	if err := Resolve(context.Background(), &f, asked); err != nil || *asked.n != 1 || len(f.IPs) != 1 || f.Classes[0] != "public" {
		t.Fatalf("Resolve: %v, %d queries, %+v", err, *asked.n, f)
	}
}

// countingResolver counts the queries it answers.
type countingResolver struct {
	mapResolver
	n *int
}

func (c countingResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	*c.n++
	return c.mapResolver.LookupNetIP(ctx, network, host)
}
