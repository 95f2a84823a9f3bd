package action

import (
	"github.com/invopop/jsonschema"
)

// Rule is a constraint on an action's arguments that their type's
// jsonschema tags cannot state (one member or another, a member required
// with another, a member's form), which the host enforces in the argument
// type's Validate or when it resolves a path. A Spec lists its Rules so
// that the published schema states them too (argschema.Build,
// extension/schemas.json): engine's TestSchemaRefusesWhatTheHostRefuses
// checks, on a generated set of requests, that the schema refuses exactly
// what the host refuses.
type Rule func(s *jsonschema.Schema)

// Cond is a condition on the arguments object, a schema an object
// matches or not.
type Cond *jsonschema.Schema

// Given is a member that is present and not empty: a string with at
// least one character (the host reads "" as absent).
func Given(member string) Cond {
	return props(member, &jsonschema.Schema{MinLength: ptr(uint64(1))})
}

// Present is a member that is present, whatever its value: an array
// (argv) or an object the host reads as given even when empty.
func Present(member string) Cond { return &jsonschema.Schema{Required: []string{member}} }

// NotEmpty is an array member with at least one element.
func NotEmpty(member string) Cond {
	return props(member, &jsonschema.Schema{MinItems: ptr(uint64(1))})
}

// True is a boolean member that is true.
func True(member string) Cond { return props(member, &jsonschema.Schema{Const: true}) }

// Is is a member equal to v.
func Is(member string, v any) Cond { return props(member, &jsonschema.Schema{Const: v}) }

// Any is true when at least one of conds is.
func Any(conds ...Cond) Cond { return &jsonschema.Schema{AnyOf: schemas(conds)} }

func props(member string, s *jsonschema.Schema) Cond {
	p := jsonschema.NewProperties()
	p.Set(member, s)
	return &jsonschema.Schema{Required: []string{member}, Properties: p}
}

// ExactlyOne requires exactly one of conds.
func ExactlyOne(conds ...Cond) Rule {
	return all(&jsonschema.Schema{OneOf: schemas(conds)})
}

// AtLeastOne requires at least one of conds.
func AtLeastOne(conds ...Cond) Rule {
	return all(&jsonschema.Schema{AnyOf: schemas(conds)})
}

// When requires then of the arguments for which cond holds.
func When(cond, then Cond) Rule {
	return all(&jsonschema.Schema{If: cond, Then: then})
}

// Pattern requires a string member to match the regular expression re
// (RE2 and ECMAScript alike: the extension's validator reads it too).
func Pattern(member, re string) Rule {
	return func(s *jsonschema.Schema) { property(s, member).Pattern = re }
}

// Names requires the names of an object member (run_command's env) to
// match re.
func Names(member, re string) Rule {
	return func(s *jsonschema.Schema) {
		property(s, member).PropertyNames = &jsonschema.Schema{Pattern: re}
	}
}

// AbsolutePattern is the form of an absolute path on any OS: /… on Unix,
// C:\… or C:/… or \\server\… on Windows, or "", which the host reads as
// absent (a required path has minLength 1 besides). The host refuses
// every other form (and, on each OS, the other OS's forms too, which a
// schema shared by every OS cannot).
const AbsolutePattern = `^$|^(/|[A-Za-z]:[\\/]|\\\\)`

// Absolute requires each of the path members to be an absolute path.
func Absolute(members ...string) Rule {
	return func(s *jsonschema.Schema) {
		for _, m := range members {
			property(s, m).Pattern = AbsolutePattern
		}
	}
}

// Each applies rules to the elements of an array member.
func Each(member string, rules ...Rule) Rule {
	return func(s *jsonschema.Schema) {
		items := property(s, member).Items
		if items == nil {
			panic("action: Each on " + member + ", which is not an array of objects")
		}
		for _, r := range rules {
			r(items)
		}
	}
}

// property returns s's property member; a Rule naming a member its type
// does not have is a programming error.
func property(s *jsonschema.Schema, member string) *jsonschema.Schema {
	if s.Properties != nil {
		if p, ok := s.Properties.Get(member); ok {
			return p
		}
	}
	panic("action: a rule names the member " + member + ", which the arguments do not have")
}

func all(c *jsonschema.Schema) Rule {
	return func(s *jsonschema.Schema) { s.AllOf = append(s.AllOf, c) }
}

func schemas(conds []Cond) []*jsonschema.Schema {
	out := make([]*jsonschema.Schema, len(conds))
	for i, c := range conds {
		out[i] = c
	}
	return out
}

func ptr[T any](v T) *T { return &v }
