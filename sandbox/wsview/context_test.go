package wsview

import (
	"context"
	"strings"
	"testing"
)

// TestReadAndSearchKeepContext: a read of some lines and a matching line
// carry the file's text around them (never sent; the content check reads
// it), up to ContextBytes each side.
func TestReadAndSearchKeepContext(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("x", ContextBytes) + "\n"
	writeTree(t, dir, map[string]string{"f.txt": long + "one\ntwo\nthree\n" + long})
	v := openView(t, dir)
	d, err := v.Read(context.Background(), "f.txt", 3, 1, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	before, after := long+"one\n", "three\n"+long
	if d.Content != "two\n" || d.Before != before[len(before)-ContextBytes:] || d.After != after[:ContextBytes] {
		t.Errorf("read: content %q, before %d bytes ending %q, after %d bytes starting %q", d.Content, len(d.Before), d.Before[max(0, len(d.Before)-8):], len(d.After), d.After[:min(8, len(d.After))])
	}
	s, err := v.Search(context.Background(), Query{Text: "two"}, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Matches) != 1 || s.Matches[0].Text != "two" || !strings.HasSuffix(s.Matches[0].Before, "one\n") || !strings.HasPrefix(s.Matches[0].After, "\nthree\n") ||
		len(s.Matches[0].Before) != ContextBytes || len(s.Matches[0].After) != ContextBytes {
		t.Errorf("search: %+v", s.Matches)
	}
}
