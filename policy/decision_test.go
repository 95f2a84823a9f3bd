package policy

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestReadDecision reads well-formed decision documents and refuses every
// malformed one: a document not shaped as documented is never an allow.
func TestReadDecision(t *testing.T) {
	const den = `{"code": "WORKSPACE_VIOLATION", "rule": "workspace.outside", "message": "m", "priority": 40}`
	const den2 = `{"code": "ACTION_NOT_ALLOWED", "rule": "a.b", "priority": 10}`
	cases := []struct {
		name, doc string
		want      Decision // Result is not compared
		err       string   // a part of the error; "" for none
	}{
		{"allow", `{"allow": true, "denials": set(), "limits": {"max_bytes": 1048576}}`,
			Decision{Allow: true, Denials: []Denial{}, Limits: map[string]int64{"max_bytes": 1048576}}, ""},
		{"no denials member", `{"allow": true, "limits": {}}`, Decision{Allow: true, Denials: []Denial{}, Limits: map[string]int64{}}, ""},
		{"null denials", `{"allow": true, "denials": null, "limits": {}}`, Decision{Allow: true, Denials: []Denial{}, Limits: map[string]int64{}}, ""},
		{"sorted by priority", `{"allow": false, "denials": {` + den + `, ` + den2 + `}, "limits": {}}`,
			Decision{Denials: []Denial{
				{Code: "ACTION_NOT_ALLOWED", Rule: "a.b", Message: "The policy does not allow this request.", Priority: 10},
				{Code: "WORKSPACE_VIOLATION", Rule: "workspace.outside", Message: "m", Priority: 40},
			}, Limits: map[string]int64{}}, ""},
		{"array of denials", `{"allow": false, "denials": [` + den + `], "limits": {}}`,
			Decision{Denials: []Denial{{Code: "WORKSPACE_VIOLATION", Rule: "workspace.outside", Message: "m", Priority: 40}}, Limits: map[string]int64{}}, ""},
		{"exponent limit", `{"allow": true, "limits": {"max_bytes": 4.194304e+06}}`,
			Decision{Allow: true, Denials: []Denial{}, Limits: map[string]int64{"max_bytes": 4194304}}, ""},
		{"not an object", `"x"`, Decision{}, "not an object"},
		{"no allow", `{"denials": set(), "limits": {}}`, Decision{}, "allow is not a boolean"},
		{"allow a string", `{"allow": "true", "limits": {}}`, Decision{}, "allow is not a boolean"},
		{"denials an object", `{"allow": true, "denials": {"a": 1}, "limits": {}}`, Decision{}, "not a set"},
		{"denial a string", `{"allow": false, "denials": {"denied"}, "limits": {}}`, Decision{}, "not an object"},
		{"unknown code", `{"allow": false, "denials": {{"code": "NOPE"}}, "limits": {}}`, Decision{}, "not a v1 code"},
		{"allow with denials", `{"allow": true, "denials": {` + den + `}, "limits": {}}`, Decision{}, "disagrees"},
		{"deny without denials", `{"allow": false, "limits": {}}`, Decision{}, "disagrees"},
		{"no limits", `{"allow": true}`, Decision{}, "limits is not an object"},
		{"limit a string", `{"allow": true, "limits": {"a": "1"}}`, Decision{}, "not a number"},
		{"fractional limit", `{"allow": true, "limits": {"a": 1.5}}`, Decision{}, "not a whole number"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readDecision(ast.MustParseTerm(tc.doc).Value)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one saying %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.Result = nil
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// TestDocumentJSON: the decision document encodes as ast.JSON's form of
// it (sets as arrays), HTML characters as they are.
func TestDocumentJSON(t *testing.T) {
	v := ast.MustParseTerm(`{"allow": true, "limits": {}, "extra": "<a&b>", "s": {"x"}}`).Value
	b, err := json.Marshal(Document{value: v})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"allow":true,"extra":"\u003ca\u0026b\u003e","limits":{},"s":["x"]}`; string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
}

// FuzzReadDecision: whatever the document, reading it never panics, and an
// accepted one allows exactly when it has no denials.
func FuzzReadDecision(f *testing.F) {
	f.Add(`{"allow": true, "limits": {}}`)
	f.Fuzz(func(t *testing.T, doc string) {
		term, err := ast.ParseTerm(doc)
		if err != nil {
			return
		}
		d, err := readDecision(term.Value)
		if err == nil && d.Allow != (len(d.Denials) == 0) {
			t.Fatalf("%s: allow %v with %d denials", doc, d.Allow, len(d.Denials))
		}
	})
}
