package policy

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

func TestEmbeddedPolicyTests(t *testing.T) {
	var out bytes.Buffer
	rep, err := RunTests(context.Background(), Embedded(), true, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() {
		t.Fatalf("policy tests: %+v\n%s", rep, out.String())
	}
	t.Logf("%d policy tests passed", rep.Passed)
}

func TestCapabilitiesForbidOutsideWorld(t *testing.T) {
	for _, src := range []string{
		`package deskbridge.policies.x
deny contains {"code": "INTERNAL_ERROR"} if http.send({"method": "get", "url": "http://127.0.0.1/"})`,
		`package deskbridge.policies.x
deny contains {"code": "INTERNAL_ERROR"} if time.now_ns() > 0`,
		`package deskbridge.policies.x
deny contains {"code": "INTERNAL_ERROR"} if net.lookup_ip_addr("localhost")`,
		`package deskbridge.policies.x
deny contains {"code": "INTERNAL_ERROR"} if rand.intn("a", 3) > 0`,
	} {
		s := Embedded()
		s.Modules = clone(s.Modules)
		s.Modules["x.rego"] = src
		_, err := New(context.Background(), s, Options{Data: map[string]any{}})
		if err == nil || !strings.Contains(err.Error(), "undefined function") {
			t.Errorf("compiled a policy using a forbidden builtin: %v\n%s", err, src)
		}
	}
}

func TestPrintGoesToTheGivenWriter(t *testing.T) {
	s := Embedded()
	s.Modules = clone(s.Modules)
	s.Modules["p.rego"] = "package deskbridge.policies.p\ndeny contains 1 if { print(\"hello from rego\"); false }"
	var out bytes.Buffer
	e, err := New(context.Background(), s, Options{Data: map[string]any{"allowed_origins": []any{}}, Print: &out})
	if err != nil {
		t.Fatal(err)
	}
	in := ast.MustInterfaceToValue(map[string]any{"request": map[string]any{"action": "get_status", "skill": "control", "channel": "cli"}, "paths": map[string]any{}})
	if _, err := e.Decide(context.Background(), InputDocumentOf(in)); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "hello from rego") {
		t.Fatalf("print output %q", out.String())
	}
}

func clone(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
