package policy

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// TestDocumentIsTheJSONForm: Input.Document builds the value the JSON
// form of the typed Input gives (docs/policy-input.md), member for member,
// with the action's Digest members as {length, sha256}.
func TestDocumentIsTheJSONForm(t *testing.T) {
	type editArgs struct {
		OldText string `json:"old_text"`
		NewText string `json:"new_text"`
	}
	type args struct {
		Path    string     `json:"path"`
		Content string     `json:"content"`
		Edits   []editArgs `json:"edits"`
	}
	yes, no, three, name, cli := true, false, 3, "Demo", ""
	in := Input{
		Version: InputVersion, TimeNS: 1764672000000000000,
		Request: Request{ID: "r1", Action: "test_action", Skill: "files", Origin: "chrome-extension://x/", Channel: "native",
			Arguments: &args{Path: "/w/a", Content: "hello", Edits: []editArgs{{OldText: "a", NewText: "b"}}},
			Digest:    []string{"content", "edits[].new_text"}},
		Paths: map[Role]Path{RoleTarget: {Input: "a", Canonical: "/w/a", Workspace: "w", WorkspaceRoot: "/w", Relative: "a",
			Inside: true, Exists: true, Type: "file", Sensitivity: "secret", Protected: true, Links: 3}},
		Command: &Command{Argv: []string{"git", "diff"}, Program: "git", ProgramName: "git", Resolved: "/usr/bin/git",
			Args: []string{"diff"}, OptionsEnd: 1, PathArgs: []CommandPathArg{{Index: 1, Value: "diff", Canonical: "/w/diff", Inside: true, Workspace: "w", Write: true}},
			EnvNames: []string{"CI"}, Excludes: []string{":(exclude).env"}, ExcludesAt: 2, ScriptRunner: "npm",
			GitObjects: []CommandGitObject{{Index: 1, Arg: "HEAD~1", Type: "commit", Run: "0123456789abcdef0123456789abcdef01234567"}}},
		URL: &URL{Raw: "https://a.example/", Normalized: "https://a.example/", Scheme: "https", Host: "a.example", ASCIIHost: "a.example",
			Port: 443, Path: "/", IPs: []URLAddress{{IP: "::ffff:10.0.0.5", Class: "private", Embedded: []string{"10.0.0.5"}}}, Classes: []string{"private"}},
		Import: &Import{Source: "/d", Relative: "x.png", Inside: true},
		Run:    &Run{Exists: true, ID: &name, Origin: &cli, Ended: &no, RoundsUsed: new(int), MaxRounds: &three, Workspace: &name, WorkspaceConfigured: &yes},
	}
	doc, err := in.Document()
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ast.ValueFromReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	// A member the input does not set is {} in the document, never left out.
	for _, k := range []*ast.Term{keyContent, keyWrite} {
		want.(ast.Object).Insert(k, ast.NewTerm(ast.NewObject()))
	}
	argv := want.(ast.Object).Get(keyRequest).Value.(ast.Object).Get(keyArguments).Value.(ast.Object)
	argv.Insert(ast.StringTerm("content"), ast.NewTerm(digestValue("hello")))
	argv.Get(ast.StringTerm("edits")).Value.(*ast.Array).Elem(0).Value.(ast.Object).Insert(ast.StringTerm("new_text"), ast.NewTerm(digestValue("b")))
	if doc.ASTValue().Compare(want) != 0 {
		t.Fatalf("Document:\n%v\nJSON form:\n%v", doc.ASTValue(), want)
	}
	if got, _ := json.Marshal(doc); !bytes.Contains(got, []byte(`"rounds_used":0`)) || !bytes.Contains(got, []byte(`"origin":""`)) {
		t.Fatalf("a zero rounds_used or an empty origin is left out: %s", got)
	}
}
