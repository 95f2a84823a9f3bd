package wsview

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// cutBy reports whether c was cut by limit, and by nothing else.
func cutBy(c Cut, limit string) bool {
	return c.Truncated && slices.Equal(c.TruncatedBy, []string{limit})
}

func TestLimitBoundaries(t *testing.T) {
	const n = 10
	lines := func(k int) string { return strings.Repeat("line\n", k) }
	cases := []struct {
		name  string
		lim   Limits
		files map[string]string
		run   func(v *View, lim Limits) Cut
		cut   string // "" when the result must be whole
	}{
		{"max_file_bytes at", Limits{MaxFileBytes: n}, map[string]string{"f": strings.Repeat("a", n)},
			readCut("f"), ""},
		{"max_file_bytes over", Limits{MaxFileBytes: n}, map[string]string{"f": strings.Repeat("a", n+1)},
			readCut("f"), ByMaxFileBytes},
		{"max_file_bytes search over", Limits{MaxFileBytes: n}, map[string]string{"f": strings.Repeat("a", n+1)},
			searchCut("a"), ByMaxFileBytes},
		{"max_lines at", Limits{MaxLines: n}, map[string]string{"f": lines(n)}, readCut("f"), ""},
		{"max_lines over", Limits{MaxLines: n}, map[string]string{"f": lines(n + 1)}, readCut("f"), ByMaxLines},
		{"max_results list at", Limits{MaxResults: n}, numbered(n, ""), listCut, ""},
		{"max_results list over", Limits{MaxResults: n}, numbered(n+1, ""), listCut, ByMaxResults},
		{"max_results search at", Limits{MaxResults: n}, numbered(n, "hit\n"), searchCut("hit"), ""},
		{"max_results search over", Limits{MaxResults: n}, numbered(n+1, "hit\n"), searchCut("hit"), ByMaxResults},
		{"max_total_chars read at", Limits{MaxTotalChars: n}, map[string]string{"f": "abcd\nabcd\n"}, readCut("f"), ""},
		{"max_total_chars read over", Limits{MaxTotalChars: n - 1}, map[string]string{"f": "abcd\nabcd\n"}, readCut("f"), ByMaxTotalChars},
		{"max_total_chars list at", Limits{MaxTotalChars: 6}, numbered(2, ""), listCut, ""},
		{"max_total_chars list over", Limits{MaxTotalChars: 5}, numbered(2, ""), listCut, ByMaxTotalChars},
		// f00 + "hit" = 6 chars per match
		{"max_total_chars search at", Limits{MaxTotalChars: 12}, numbered(2, "hit\n"), searchCut("hit"), ""},
		{"max_total_chars search over", Limits{MaxTotalChars: 11}, numbered(2, "hit\n"), searchCut("hit"), ByMaxTotalChars},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, c.files)
			v := openView(t, dir)
			got := c.run(v, c.lim)
			if c.cut == "" && got.Truncated {
				t.Fatalf("cut at the boundary: %+v", got)
			}
			if c.cut != "" && !cutBy(got, c.cut) {
				t.Fatalf("cut = %+v, want %s", got, c.cut)
			}
		})
	}
}

// numbered returns k files f00, f01, … holding content.
func numbered(k int, content string) map[string]string {
	m := map[string]string{}
	for i := range k {
		m[fmt.Sprintf("f%02d", i)] = content
	}
	return m
}

func readCut(p string) func(*View, Limits) Cut {
	return func(v *View, lim Limits) Cut {
		d, err := v.Read(context.Background(), p, 0, 0, lim)
		if err != nil {
			panic(err)
		}
		if len(d.Content) > lim.Normalized().MaxFileBytes {
			panic("more than max_file_bytes of content returned")
		}
		return d.Cut
	}
}

func searchCut(q string) func(*View, Limits) Cut {
	return func(v *View, lim Limits) Cut {
		d, err := v.Search(context.Background(), Query{Text: q}, lim)
		if err != nil {
			panic(err)
		}
		return d.Cut
	}
}

func listCut(v *View, lim Limits) Cut {
	d, err := v.List(context.Background(), "", 1, lim)
	if err != nil {
		panic(err)
	}
	return d.Cut
}

func TestRoundSharesTotalChars(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a": "12345\n", "b": "12345\n"})
	v := openView(t, dir)
	r := v.Run(context.Background(), []Request{{Type: TypeRead, Path: "a"}, {Type: TypeRead, Path: "b"}},
		Limits{MaxTotalChars: 8})
	second := r.Results[1].Data.(*ReadData)
	if second.Content != "" || !cutBy(second.Cut, ByMaxTotalChars) || !cutBy(r.Cut, ByMaxTotalChars) {
		t.Fatalf("second read not cut by the round budget: %+v / %+v", second, r.Cut)
	}
}

func TestReadLineRange(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"f": "1\n2\n3\n4\n5"})
	v := openView(t, dir)
	cases := []struct {
		start, max  int
		want        string
		first, last int
	}{
		{0, 0, "1\n2\n3\n4\n5", 1, 5},
		{2, 2, "2\n3\n", 2, 3},
		{5, 10, "5", 5, 5},
		{9, 1, "", 9, 8},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.start, c.max), func(t *testing.T) {
			d, err := v.Read(context.Background(), "f", c.start, c.max, Limits{})
			if err != nil {
				t.Fatal(err)
			}
			if d.Content != c.want || d.StartLine != c.first || d.EndLine != c.last || d.TotalLines != 5 || d.Truncated {
				t.Fatalf("got %+v", d)
			}
		})
	}
}

// TestOverSizeHead: of a file over max_file_bytes, read_file returns and
// search_workspace searches the head, whole lines of it only, and nothing
// past the limit.
func TestOverSizeHead(t *testing.T) {
	const limit = 32
	head := "first line\nsecond é line\n" // 26 bytes
	tail := "third line runs past the limit\nBEYOND\n"
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"big.txt": head + tail, "wide.txt": strings.Repeat("é", limit)})
	v := openView(t, dir)
	lim := Limits{MaxFileBytes: limit}

	d, err := v.Read(context.Background(), "big.txt", 0, 0, lim)
	if err != nil {
		t.Fatal(err)
	}
	if d.Content != head || d.TotalLines != 2 || !cutBy(d.Cut, ByMaxFileBytes) || d.Size != int64(len(head+tail)) {
		t.Fatalf("read = %+v, want the head %q cut by max_file_bytes", d, head)
	}
	d, err = v.Read(context.Background(), "wide.txt", 0, 0, lim)
	if err != nil {
		t.Fatal(err)
	}
	if d.Content != strings.Repeat("é", limit/2) || !cutBy(d.Cut, ByMaxFileBytes) {
		t.Fatalf("one-line read = %q, want whole characters within the limit", d.Content)
	}

	s, err := v.Search(context.Background(), Query{Text: "line"}, lim)
	if err != nil {
		t.Fatal(err)
	}
	// Both files are over the limit, so both are searched by their head.
	if len(s.Matches) != 2 || s.Matches[1].Line != 2 || s.HeadOnly != 2 || !cutBy(s.Cut, ByMaxFileBytes) {
		t.Fatalf("search = %+v, want the head's two lines and head_only 2", s)
	}
	if s, _ = v.Search(context.Background(), Query{Text: "BEYOND"}, lim); len(s.Matches) != 0 {
		t.Fatalf("a line past max_file_bytes was searched: %+v", s.Matches)
	}
}
