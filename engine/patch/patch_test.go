package patch

import (
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/protocol"
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
