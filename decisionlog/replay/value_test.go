package replay

import (
	"math/rand/v2"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// checkToValue fails unless toValue(x) is ast.InterfaceToValue(x),
// numbers spelled the same.
func checkToValue(t *testing.T, x any, strs stringTable) {
	t.Helper()
	want, wantErr := ast.InterfaceToValue(x)
	got, err := toValue(x, strs)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("error %v, want %v", err, wantErr)
	}
	if err == nil && (got.Compare(want) != 0 || got.String() != want.String()) {
		t.Fatalf("toValue\n got %v\nwant %v", got, want)
	}
}

// TestToValueMatchesInterfaceToValue converts random JSON values both
// ways, with one string table throughout as a worker keeps it
// (TestToValueOfLoggedInputs does the same for a real host's log).
func TestToValueMatchesInterfaceToValue(t *testing.T) {
	strs := stringTable{}
	r := rand.New(rand.NewPCG(7, 8))
	for range 5000 {
		checkToValue(t, logged(t, genValue(r, 4)), strs)
	}
}
