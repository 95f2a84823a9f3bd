package assets_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/deskbridge/deskbridge/policy"
)

// TestRegoAssetsTests runs rego/assets_test.rego against the whole default
// policy set, as the host evaluates it (its data, the actions' cards,
// included), through the same runner as `deskbridge policy test`.
func TestRegoAssetsTests(t *testing.T) {
	var out bytes.Buffer
	r, err := policy.RunTestsWith(context.Background(), policy.Embedded(), policy.TestOptions{Run: `assets_test\.`}, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !r.OK() {
		t.Fatalf("assets Rego tests: %d passed, %d failed, %d errored:\n%s", r.Passed, r.Failed, r.Errored, out.String())
	}
	if r.Passed < 8 {
		t.Fatalf("%d assets Rego tests ran, want at least 8", r.Passed)
	}
}
