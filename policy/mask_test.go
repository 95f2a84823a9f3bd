package policy

import (
	"context"
	"testing"

	"reflect"
)

func TestMaskEvaluatesSystemLogMask(t *testing.T) {
	ctx := context.Background()
	e, err := New(ctx, Embedded(), Options{Data: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if doc, err := e.Mask(ctx, map[string]any{"action": "read_file"}); e.HasMask() || doc != nil || err != nil {
		t.Fatalf("a policy without package system.log masks %v (%v)", doc, err)
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
	ev := map[string]any{"action": "read_file", "input": map[string]any{"secret": "s3cr3t", "origin": "o"}}
	doc, err := e.Mask(ctx, ev)
	if err != nil || !e.HasMask() {
		t.Fatal(err)
	}
	want := []any{"/input/secret", map[string]any{"op": "upsert", "path": "/input/origin", "value": "hidden"}}
	if !reflect.DeepEqual(doc, want) {
		t.Fatalf("mask document %v, want %v", doc, want)
	}
	ev["action"] = "list_folder"
	if doc, err = e.Mask(ctx, ev); err != nil || !reflect.DeepEqual(doc, []any{"/input/secret"}) {
		t.Fatalf("mask document for list_folder: %v (%v)", doc, err)
	}
}
