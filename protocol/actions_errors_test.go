package protocol

import (
	"slices"
	"testing"
)

// TestCardErrors: every card's Errors are v1 codes, each once, none of
// them common (CommonErrors are every action's already) and none
// UNKNOWN_ACTION, which names no action; and every v1 code but
// UNKNOWN_ACTION is one some action may answer.
func TestCardErrors(t *testing.T) {
	answered := map[Code]bool{UnknownAction: true}
	for _, c := range CommonErrors {
		answered[c] = true
	}
	for _, a := range Actions {
		for i, c := range a.Errors {
			switch {
			case !c.Valid():
				t.Errorf("%s: %q is not a v1 code", a.Name, c)
			case c == UnknownAction || slices.Contains(CommonErrors, c):
				t.Errorf("%s: %s does not belong on a card (common or no action's)", a.Name, c)
			case slices.Contains(a.Errors[:i], c):
				t.Errorf("%s: %s listed twice", a.Name, c)
			}
			answered[c] = true
		}
	}
	for _, c := range Codes {
		if !answered[c] {
			t.Errorf("no card lists %s, and it is not common", c)
		}
	}
}
