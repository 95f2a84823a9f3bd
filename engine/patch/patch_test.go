package patch

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

func TestApply(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		edits []Edit
		want  string
		code  protocol.Code
	}{
		{"one edit", "hello world", []Edit{{"world", "there"}}, "hello there", ""},
		{"sequential edits see earlier ones", "a b c", []Edit{{"a", "x"}, {"x b", "y"}}, "y c", ""},
		{"not found", "abc", []Edit{{"zzz", "y"}}, "", protocol.PatchTargetNotFound},
		{"not unique", "ab ab", []Edit{{"ab", "y"}}, "", protocol.PatchTargetNotUnique},
		{"overlapping not unique", "aaa", []Edit{{"aa", "b"}}, "", protocol.PatchTargetNotUnique},
		{"second edit fails, nothing applied", "abc", []Edit{{"a", "x"}, {"q", "y"}}, "", protocol.PatchTargetNotFound},
		{"edit creates ambiguity", "ab", []Edit{{"b", "a"}, {"a", "z"}}, "", protocol.PatchTargetNotUnique},
		{"empty old text", "abc", []Edit{{"", "y"}}, "", protocol.InvalidRequest},
		{"delete", "keep drop keep2", []Edit{{" drop", ""}}, "keep keep2", ""},
		{"multibyte", "héllo wörld", []Edit{{"ö", "o"}}, "héllo world", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Apply(c.text, c.edits)
			if c.code != "" {
				if err == nil || err.Code != c.code {
					t.Fatalf("got %q, %v; want %s", got, err, c.code)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestErrorNamesTheEditIndex(t *testing.T) {
	_, err := Apply("abc", []Edit{{"a", "x"}, {"a", "y"}})
	if err == nil || !strings.Contains(err.Message, "Edit 1") {
		t.Fatalf("got %v", err)
	}
}

func TestDiff(t *testing.T) {
	d := Diff("/ws/a.txt", "one\ntwo\n", "one\n2\n")
	for _, want := range []string{"--- a/ws/a.txt", "+++ b/ws/a.txt", "-two", "+2"} {
		if !strings.Contains(d, want) {
			t.Fatalf("diff lacks %q:\n%s", want, d)
		}
	}
}

func FuzzApply(f *testing.F) {
	f.Add("hello world", "world", "there")
	f.Add("aaa", "aa", "b")
	f.Add("", "x", "")
	f.Fuzz(func(t *testing.T, text, old, new string) {
		got, err := Apply(text, []Edit{{old, new}})
		if err != nil {
			if got != "" {
				t.Fatal("returned text with an error")
			}
			return
		}
		if strings.Count(text, old) != 1 {
			t.Fatalf("applied an edit whose target occurs %d times", strings.Count(text, old))
		}
		if len(got) != len(text)-len(old)+len(new) {
			t.Fatal("wrong length after edit")
		}
	})
}

// FuzzApplyEdits applies up to three edits (n%4 of them) and holds Apply
// and Diff to patch_file's contract: every edit's old_text occurs exactly
// once in the text as it stands before that edit (occurrences that overlap
// count), the first edit that cannot apply fails the whole call with its
// index and nothing is returned, and the diff turns the input into the
// output.
func FuzzApplyEdits(f *testing.F) {
	f.Add("a b c", uint8(2), "a", "x", "x b", "y", "", "")
	f.Add("ab", uint8(2), "b", "a", "a", "z", "", "")
	f.Add("one\ntwo\nthree", uint8(3), "two", "2", "three", "3\n", "one\n", "")
	f.Add("abc", uint8(3), "a", "x", "q", "y", "c", "z")
	f.Add("x", uint8(0), "x", "y", "", "", "", "")
	f.Fuzz(func(t *testing.T, text string, n uint8, old1, new1, old2, new2, old3, new3 string) {
		edits := []Edit{{old1, new1}, {old2, new2}, {old3, new3}}[:n%4]
		given := slices.Clone(edits)
		got, err := Apply(text, edits)
		if !slices.Equal(edits, given) {
			t.Fatal("Apply changed its edits")
		}

		// The model: each edit in turn on the text as it stands.
		want, failAt, failCode := text, -1, protocol.Code("")
	model:
		for i, e := range edits {
			switch c := occurrences(want, e.OldText); {
			case e.OldText == "":
				failCode = protocol.InvalidRequest
			case c == 0:
				failCode = protocol.PatchTargetNotFound
			case c > 1:
				failCode = protocol.PatchTargetNotUnique
			default:
				at := strings.Index(want, e.OldText)
				want = want[:at] + e.NewText + want[at+len(e.OldText):]
				continue
			}
			failAt = i
			break model
		}

		if failAt >= 0 {
			if err == nil {
				t.Fatalf("applied every edit although edit %d cannot apply (%s)", failAt, failCode)
			}
			if err.Code != failCode || !strings.Contains(err.Message, fmt.Sprintf("Edit %d", failAt)) {
				t.Fatalf("error %s %q, want %s naming edit %d", err.Code, err.Message, failCode, failAt)
			}
			if got != "" {
				t.Fatalf("returned %q with an error: all edits or none", got)
			}
			return
		}
		if err != nil {
			t.Fatalf("refused edits that apply: %s %s", err.Code, err.Message)
		}
		if got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
		checkDiff(t, text, got, Diff("/ws/f.txt", text, got))
	})
}

// occurrences counts old in text, overlapping ones included.
func occurrences(text, old string) int {
	c := 0
	for i := 0; old != "" && i+len(old) <= len(text); i++ {
		if text[i:i+len(old)] == old {
			c++
		}
	}
	return c
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n$`)

// checkDiff holds the unified diff d of before → after to what a reader of
// it relies on: it is empty exactly when nothing changed, every removed
// line is a line of before and every added line one of after, and applying
// its hunks (context and removed lines checked) to before gives after.
func checkDiff(t *testing.T, before, after, d string) {
	t.Helper()
	if (d == "") != (before == after) {
		t.Fatalf("diff %q for %q → %q", d, before, after)
	}
	if d == "" {
		return
	}
	const head = "--- a/ws/f.txt\n+++ b/ws/f.txt\n"
	if !strings.HasPrefix(d, head) {
		t.Fatalf("diff does not begin with its labels:\n%s", d)
	}
	src, dst := lines(before), lines(after)
	var out []string
	pos := 0
	rows := lines(d[len(head):])
	for i := 0; i < len(rows); {
		m := hunkHeader.FindStringSubmatch(rows[i])
		if m == nil {
			t.Fatalf("line %q where a hunk header belongs:\n%s", rows[i], d)
		}
		i++
		from, fromCount := atoi(m[1]), count(m[2])
		to, toCount := atoi(m[3]), count(m[4])
		start := from - 1
		if fromCount == 0 {
			start = from // an insertion after line from
		}
		if start < pos || start > len(src) {
			t.Fatalf("hunk %q starts at line %d, after line %d was used:\n%s", m[0], start, pos, d)
		}
		out = append(out, src[pos:start]...)
		pos = start
		if toCount == 0 && to != len(out) || toCount > 0 && to != len(out)+1 {
			t.Fatalf("hunk %q: the new side starts after line %d:\n%s", m[0], len(out), d)
		}
		nFrom, nTo := 0, 0
		for i < len(rows) && !strings.HasPrefix(rows[i], "@@") {
			op, content := rows[i][0], rows[i][1:]
			i++
			if i < len(rows) && rows[i] == "\\ No newline at end of file\n" {
				content = strings.TrimSuffix(content, "\n")
				i++
			}
			switch op {
			case ' ', '-':
				if pos >= len(src) || src[pos] != content {
					t.Fatalf("diff line %q is not line %d of the input:\n%s", rows[i-1], pos+1, d)
				}
				if op == '-' && !slices.Contains(src, content) {
					t.Fatalf("removed line %q is not in the input", content)
				}
				pos++
				nFrom++
				if op == ' ' {
					out = append(out, content)
					nTo++
				}
			case '+':
				if !slices.Contains(dst, content) {
					t.Fatalf("added line %q is not in the output:\n%s", content, d)
				}
				out = append(out, content)
				nTo++
			default:
				t.Fatalf("diff line %q has no +, - or space:\n%s", rows[i-1], d)
			}
		}
		if nFrom != fromCount || nTo != toCount {
			t.Fatalf("hunk %q holds %d old and %d new lines:\n%s", m[0], nFrom, nTo, d)
		}
	}
	out = append(out, src[pos:]...)
	if got := strings.Join(out, ""); got != after {
		t.Fatalf("the diff applied to %q gives %q, not %q:\n%s", before, got, after, d)
	}
}

// lines splits s after each newline; the last line may lack one.
func lines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// count is a hunk header's line count, 1 when it is left out.
func count(s string) int {
	if s == "" {
		return 1
	}
	return atoi(s)
}

func TestFileMatchesLineEndings(t *testing.T) {
	cases := []struct {
		name  string
		text  string
		edits []Edit
		want  string
		le    LineEnding
	}{
		{"lf edit in a crlf file", "one\r\ntwo\r\nthree\r\n", []Edit{{"one\ntwo", "1\n2\n2b"}}, "1\r\n2\r\n2b\r\nthree\r\n", CRLF},
		{"crlf edit in a crlf file", "one\r\ntwo\r\n", []Edit{{"one\r\n", "1\r\n"}}, "1\r\ntwo\r\n", CRLF},
		{"crlf edit in an lf file", "one\ntwo\n", []Edit{{"one\r\ntwo", "1\r\n2"}}, "1\n2\n", LF},
		{"a bom is kept", "\uFEFFone\r\ntwo\r\n", []Edit{{"one\ntwo", "x\ny"}}, "\uFEFFx\r\ny\r\n", CRLF},
		{"an edit of the first line after a bom", "\uFEFFone\n", []Edit{{"one", "1"}}, "\uFEFF1\n", LF},
		{"no line break is lf", "abc", []Edit{{"b", "x\ny"}}, "ax\nyc", LF},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, le, err := File(c.text, c.edits)
			if err != nil || got != c.want || le != c.le {
				t.Fatalf("got %q, %s, %v; want %q, %s", got, le, err, c.want, c.le)
			}
		})
	}
}

// FuzzFile holds File to the editor's rule: on a text with LF line breaks
// and no CR, an edit applies to the same text written with CRLF (and with
// a byte order mark) exactly as it applies to the LF text, and the result
// is the LF result written with CRLF (and the mark).
func FuzzFile(f *testing.F) {
	f.Add("one\ntwo\nthree\n", "two\nthree", "2\n3")
	f.Add("a\nb", "a", "x\ny")
	f.Add("a\na\n", "a\n", "b")
	f.Fuzz(func(t *testing.T, text, old, new string) {
		if !strings.Contains(text, "\n") || strings.Contains(text+old+new, "\r") || strings.HasPrefix(text, bom) {
			return
		}
		crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
		edits := []Edit{{old, new}}
		lf, lfErr := Apply(text, edits)
		for _, c := range []struct {
			in, want string
			le       LineEnding
		}{
			{text, lf, LF},
			{crlf(text), crlf(lf), CRLF},
			{bom + crlf(text), bom + crlf(lf), CRLF},
		} {
			got, le, err := File(c.in, edits)
			if (err == nil) != (lfErr == nil) || err != nil && err.Code != lfErr.Code {
				t.Fatalf("File(%q) error %v, Apply on LF %v", c.in, err, lfErr)
			}
			if err == nil && (got != c.want || le != c.le) {
				t.Fatalf("File(%q) = %q, %s; want %q, %s", c.in, got, le, c.want, c.le)
			}
		}
	})
}
