package wsview

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSearchKinds(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"a.go":          "package a\nfunc Hello() {}\n\nfunc hello() {}\n",
		"b/hello.txt":   "nothing\r\nHello there\r\n",
		"b/c/d.go":      "// Hello\n",
		"bin.dat":       "Hello\x00binary",
		"long.txt":      "Hello " + strings.Repeat("z", 500) + "\n",
		"b/c/e.md":      "no match\n",
		"unicode.txt":   "\xffHello\n",
		"hello-name.md": "x\n",
	})
	v := openView(t, dir)
	cases := []struct {
		name string
		q    Query
		want []string // path:line ("path:0" for a name match)
	}{
		{"literal", Query{Text: "Hello"}, []string{"a.go:2", "b/c/d.go:1", "b/hello.txt:2", "long.txt:1", "unicode.txt:1"}},
		{"names", Query{Text: "hello"}, []string{"a.go:4", "b/hello.txt:0", "hello-name.md:0"}},
		{"regex anchors", Query{Text: "^func [a-z]", Regex: true}, []string{"a.go:4"}},
		{"glob by name", Query{Text: "Hello", Glob: "*.go"}, []string{"a.go:2", "b/c/d.go:1"}},
		{"glob by path", Query{Text: "Hello", Glob: "b/**/*.go"}, []string{"b/c/d.go:1"}},
		{"max results", Query{Text: "Hello", MaxResults: 2}, []string{"a.go:2", "b/c/d.go:1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, perr := v.Search(context.Background(), c.q, Limits{})
			if perr != nil {
				t.Fatal(perr)
			}
			var got []string
			for _, m := range d.Matches {
				got = append(got, fmt.Sprintf("%s:%d", m.Path, m.Line))
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestSearchLineText(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f": "x\r\n\xffHello " + strings.Repeat("y", 300) + "\r\n"})
	d, _ := openView(t, dir).Search(context.Background(), Query{Text: "Hello"}, Limits{})
	if len(d.Matches) != 1 {
		t.Fatalf("matches = %+v", d.Matches)
	}
	m := d.Matches[0]
	if m.Line != 2 || len(m.Text) > MaxLineChars || !m.Clipped || !utf8.ValidString(m.Text) || strings.HasSuffix(m.Text, "\r") {
		t.Fatalf("match = %+v", m)
	}
}

func TestSearchBadQueries(t *testing.T) {
	v := openView(t, t.TempDir())
	for _, c := range []struct {
		q    Query
		kind error
	}{
		{Query{Text: ""}, ErrQuery},
		{Query{Text: "(", Regex: true}, ErrRegex},
		{Query{Text: "x", Glob: "["}, ErrGlob},
		{Query{Text: string(make([]byte, MaxQueryChars+1))}, ErrQuery},
	} {
		if _, err := v.Search(context.Background(), c.q, Limits{}); !errors.Is(err, c.kind) {
			t.Errorf("Search(%+v) err = %v, want %v", c.q, err, c.kind)
		}
	}
}

// TestSearchStableOrder checks that parallel search answers in walk order,
// the same every time, including when it stops early.
func TestSearchStableOrder(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 300 {
		files[fmt.Sprintf("d%d/f%03d.txt", i%7, i)] = fmt.Sprintf("a\nneedle %d\nb\nneedle again\n", i)
	}
	writeTree(t, dir, files)
	v := openView(t, dir)
	var want []Match
	for _, e := range mustList(t, v).Entries {
		if e.Type == "file" {
			want = append(want, Match{Path: e.Path, Kind: "content", Line: 2}, Match{Path: e.Path, Kind: "content", Line: 4})
		}
	}
	for _, max := range []int{1000, 37} {
		for range 5 {
			d, perr := v.Search(context.Background(), Query{Text: "needle"}, Limits{MaxResults: max})
			if perr != nil {
				t.Fatal(perr)
			}
			n := min(max, len(want))
			for i := range d.Matches {
				d.Matches[i].Text, d.Matches[i].Before, d.Matches[i].After = "", "", ""
			}
			if !slices.Equal(d.Matches, want[:n]) || d.Truncated != (max < len(want)) {
				t.Fatalf("max %d: order differs from the walk (%d matches, cut %+v)", max, len(d.Matches), d.Cut)
			}
		}
	}
}

func mustList(t *testing.T, v *View) *ListData {
	t.Helper()
	d, perr := v.List(context.Background(), "", MaxListDepth, Limits{MaxResults: 10000})
	if perr != nil {
		t.Fatal(perr)
	}
	return d
}

func TestSearchCancelled(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, numbered(50, "x\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, perr := openView(t, dir).Search(ctx, Query{Text: "x"}, Limits{}); perr == nil {
		t.Fatal("a cancelled search answered")
	}
}
