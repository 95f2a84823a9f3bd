package policy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// partsInput is a read_file-like input whose path facts and arguments
// the test varies.
func partsInput(path string, size int64, modified string) Input {
	type args struct {
		Path string `json:"path"`
	}
	return Input{
		Version: InputVersion, TimeNS: 1,
		Request: Request{ID: "r", Action: "parts_test", Skill: "files", Origin: "o", Channel: "native", Arguments: &args{Path: path}},
		Paths: map[Role]Path{RoleTarget: {Input: path, Canonical: path, Workspace: "w", WorkspaceRoot: "/w", Relative: strings.TrimPrefix(path, "/w/"),
			Inside: true, Exists: true, Type: "file", Sensitivity: "normal", Links: 1, Size: size, Modified: modified}},
	}
}

// jsonForm is in's document as its JSON form gives it.
func jsonForm(t *testing.T, in Input) ast.Value {
	t.Helper()
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	v, err := ast.ValueFromReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []*ast.Term{keyCommand, keyURL, keyImport, keyRun, keyContent, keyWrite} {
		v.(ast.Object).Insert(k, ast.NewTerm(ast.NewObject()))
	}
	return v
}

// TestDocumentPartsFollowTheFacts: a document built after an equal one
// shares its parts, and one whose facts or arguments changed (the file
// grew, was touched, another path was asked for) is built from them,
// never from the parts of the one before.
func TestDocumentPartsFollowTheFacts(t *testing.T) {
	inputs := []Input{
		partsInput("/w/a.txt", 10, "2026-12-01T00:00:00Z"),
		partsInput("/w/a.txt", 10, "2026-12-01T00:00:00Z"),
		partsInput("/w/a.txt", 11, "2026-12-01T00:00:00Z"),
		partsInput("/w/a.txt", 11, "2026-12-01T00:00:01Z"),
		partsInput("/w/b.txt", 11, "2026-12-01T00:00:01Z"),
		partsInput("/w/"+strings.Repeat("c", 3000), 1, "x"), // too long to be kept
		partsInput("/w/"+strings.Repeat("c", 3000), 2, "x"),
	}
	var prev ast.Object
	for i, in := range inputs {
		doc, err := in.Document()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := doc.ASTValue(), jsonForm(t, in); got.Compare(want) != 0 {
			t.Fatalf("input %d: document\n%v\nwant\n%v", i, got, want)
		}
		obj := doc.ASTValue().(ast.Object)
		if i == 1 {
			if obj.Get(keyPaths) != prev.Get(keyPaths) {
				t.Error("equal paths were built again")
			}
			args := func(o ast.Object) *ast.Term { return o.Get(keyRequest).Value.(ast.Object).Get(keyArguments) }
			if args(obj) != args(prev) {
				t.Error("equal arguments were built again")
			}
		}
		prev = obj
	}
}

// TestMemoTellsChangedPartsApart: the memo answers an input from a
// decision of an equal one only, with parts shared or not.
func TestMemoTellsChangedPartsApart(t *testing.T) {
	doc := func(size int64) ast.Value {
		in := partsInput("/w/a.txt", size, "m")
		d, err := in.Document()
		if err != nil {
			t.Fatal(err)
		}
		return d.ASTValue()
	}
	a, b, c := doc(10), doc(10), doc(12)
	if !memoEqual(a, b) {
		t.Error("equal inputs are not equal to the memo")
	}
	if memoEqual(a, c) {
		t.Error("inputs of different sizes are equal to the memo")
	}
}

// TestDigestedArgumentsAreNotKept: arguments carrying what the document
// holds only as a digest (a file's content) are never kept in memory as
// a cache key after their request.
func TestDigestedArgumentsAreNotKept(t *testing.T) {
	type args struct {
		Path    string `json:"path"`
		Content string `json:"content"`
	}
	in := partsInput("/w/a.txt", 1, "m")
	in.Request.Action, in.Request.Digest = "parts_test_write", []string{"content"}
	in.Request.Arguments = &args{Path: "/w/a.txt", Content: "s3cret-content"}
	if _, err := in.Document(); err != nil {
		t.Fatal(err)
	}
	argumentParts.mu.Lock()
	defer argumentParts.mu.Unlock()
	for k := range argumentParts.m {
		if strings.Contains(k.json, "s3cret-content") {
			t.Fatalf("the content is kept in the cache key %q", k.json)
		}
	}
}

// TestDocumentPartsConcurrently builds documents of a few inputs from
// several goroutines at once, as a host's workers do: each is the one its
// own input gives (run with -race).
func TestDocumentPartsConcurrently(t *testing.T) {
	inputs := make([]Input, 5)
	wants := make([]ast.Value, len(inputs))
	for i := range inputs {
		inputs[i] = partsInput("/w/c"+strings.Repeat("x", i)+".txt", int64(i), "m")
		wants[i] = jsonForm(t, inputs[i])
	}
	done := make(chan struct{})
	for g := range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for n := range 200 {
				i := (g + n) % len(inputs)
				in := inputs[i]
				doc, err := in.Document()
				if err != nil {
					t.Error(err)
					return
				}
				if doc.ASTValue().Compare(wants[i]) != 0 {
					t.Errorf("input %d: document %v", i, doc.ASTValue())
					return
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
}
