package engine

import (
	"reflect"
	"testing"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/envelope"
)

// TestArgumentTagsAreChecked holds every action's argument type to tags the
// host checks natively: a rule in the published schema is a rule the host
// enforces.
func TestArgumentTagsAreChecked(t *testing.T) {
	for _, name := range action.Built() {
		spec, _ := action.Lookup(name)
		if err := envelope.CheckType(reflect.TypeOf(spec.NewArgs())); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
