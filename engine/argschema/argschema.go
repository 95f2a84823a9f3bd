// Package argschema reflects the JSON Schema of each built action's
// arguments from its Go argument type and `jsonschema` tags (the same
// declaration package envelope checks natively), then adds the Spec's
// Rules (what the type's Validate and the path facts refuse), so that the
// published schema (`deskbridge schema`, extension/schemas.json) refuses
// what the host refuses.
package argschema

import (
	"reflect"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/invopop/jsonschema"
)

// Build returns the schema of the arguments of every registered action, by
// name. Schemas are inlined (no $ref) so that a small validator can read
// them; members the host ignores are allowed, as the host allows them.
func Build() map[string]*jsonschema.Schema {
	r := &jsonschema.Reflector{
		Anonymous:                  true,
		DoNotReference:             true,
		ExpandedStruct:             true,
		AllowAdditionalProperties:  true,
		RequiredFromJSONSchemaTags: true,
	}
	out := map[string]*jsonschema.Schema{}
	for _, name := range action.Built() {
		spec, _ := action.Lookup(name)
		s := r.ReflectFromType(reflect.TypeOf(spec.NewArgs()))
		s.Version = ""
		for _, rule := range spec.Rules {
			rule(s)
		}
		out[name] = s
	}
	return out
}
