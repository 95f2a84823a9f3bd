package main

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"

	"github.com/deskbridge/deskbridge/engine/action"
	_ "github.com/deskbridge/deskbridge/engine/actions" // registers the built actions
	"github.com/invopop/jsonschema"
)

// Schemas is the document `deskbridge schema` prints and the reference
// extension loads as schemas.json: a JSON Schema of the arguments of each
// built action.
type Schemas struct {
	Actions map[string]*jsonschema.Schema `json:"actions"`
}

// buildSchemas reflects over the argument type of every registered action.
// Schemas are inlined (no $ref) so that a small validator can read them;
// members the host ignores are allowed, as the host allows them.
func buildSchemas() Schemas {
	r := &jsonschema.Reflector{
		Anonymous:                  true,
		DoNotReference:             true,
		ExpandedStruct:             true,
		AllowAdditionalProperties:  true,
		RequiredFromJSONSchemaTags: true,
	}
	out := Schemas{Actions: map[string]*jsonschema.Schema{}}
	for _, name := range action.Built() {
		spec, _ := action.Lookup(name)
		s := r.ReflectFromType(reflect.TypeOf(spec.NewArgs()))
		s.Version = ""
		out.Actions[name] = s
	}
	return out
}

// schemaCommand prints the argument schemas as indented JSON.
func schemaCommand(args []string, stdout, stderr io.Writer) int {
	if len(args) != 0 {
		fmt.Fprint(stderr, "usage: deskbridge schema > extension/schemas.json\n")
		return 2
	}
	b, err := json.MarshalIndent(buildSchemas(), "", "  ")
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: schema: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}
