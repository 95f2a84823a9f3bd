package policy

import (
	"context"
	"testing"

	"github.com/deskbridge/deskbridge/policy/decisionlog"
)

func TestMaskerEvaluatesSystemLogMask(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Embedded(), Options{Data: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if e.Masker() != nil {
		t.Fatal("a policy without package system.log has a masker")
	}
	s := Embedded()
	s.Modules = clone(s.Modules)
	s.Modules["mask.rego"] = `package system.log

mask contains "/input/secret"
mask contains {"op": "upsert", "path": "/input/origin", "value": "hidden"} if input.action == "read_file"
`
	if e, err = New(ctx, s, Options{Data: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	ev := &decisionlog.Event{Action: "read_file", Input: map[string]any{"secret": "s3cr3t", "origin": "o", "kept": 1}}
	ops, err := e.Masker().Mask(ctx, ev)
	if err != nil {
		t.Fatal(err)
	}
	if err := decisionlog.ApplyMask(ev, ops); err != nil {
		t.Fatal(err)
	}
	in := ev.Input.(map[string]any)
	if _, ok := in["secret"]; ok || in["origin"] != "hidden" || in["kept"] == nil {
		t.Fatalf("masked input %v (ops %v)", in, ops)
	}
}
