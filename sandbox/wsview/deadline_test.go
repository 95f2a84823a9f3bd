package wsview

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// slowPattern costs Go's regexp tens of µs a byte: three 256 KiB files
// take it tens of seconds.
const slowPattern = `(?s).{1000}\x01`

// TestSearchKeepsItsDeadline: a search whose deadline passes answers with
// what it found, cut by ByTime, instead of scanning on (a costly pattern
// inside one large file included) and answering late.
func TestSearchKeepsItsDeadline(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.txt": "found here\n"}
	for i := range 3 {
		files[fmt.Sprintf("big%d.txt", i)] = strings.Repeat("abcdefghij\n", 256<<10/11)
	}
	writeTree(t, dir, files)
	v := openView(t, dir)
	for _, q := range []Query{{Text: slowPattern, Regex: true}, {Text: `found|` + slowPattern, Regex: true}} {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		d, err := v.Search(ctx, q, Limits{})
		cancel()
		if err != nil {
			t.Fatalf("%s: %v", q.Text, err)
		}
		if !slices.Contains(d.TruncatedBy, ByTime) || !d.Truncated {
			t.Fatalf("%s: truncated_by %v, want %q", q.Text, d.TruncatedBy, ByTime)
		}
	}
}

// TestCostlyExpressionsFindWhatTheyWould: an expression run through the
// deadline reader finds exactly what regexp finds on the whole file,
// matches across lines included.
func TestCostlyExpressionsFindWhatTheyWould(t *testing.T) {
	text := "alpha\nfunc  main(\n) beta\nalpha beta\n" + strings.Repeat("z", 300) + "\nend alpha"
	for _, expr := range []string{`alpha\s+beta`, `a[a-z]{2,60}a`, `(?s)func.{1,50}beta`, `beta$`, `^end`} {
		m, err := newMatcher(Query{Text: expr, Regex: true})
		if err != nil {
			t.Fatal(err)
		}
		m.costly = true
		s := &searcher{m: m, want: 100}
		got, late := s.scan([]byte(text), "f", nil)
		if late {
			t.Fatalf("%s: late without a deadline", expr)
		}
		m.costly = false
		want, _ := s.scan([]byte(text), "f", nil)
		if !slices.Equal(got, want) || len(want) == 0 {
			t.Errorf("%s: costly path found %v, the whole-slice path %v", expr, got, want)
		}
	}
}

func TestProgramSize(t *testing.T) {
	for expr, costly := range map[string]bool{
		"foo": false, `func\s+\w+\(`: false, `(?i)hello world`: false,
		slowPattern: true, `[a-z]{50}x`: true, `(a{30}){30}`: true,
	} {
		if _, err := regexp.Compile(expr); err != nil {
			t.Fatal(err)
		}
		if got := programSize(expr) > cheapInsts; got != costly {
			t.Errorf("%s: costly = %v (%d instructions), want %v", expr, got, programSize(expr), costly)
		}
	}
}
