package cmdfacts

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

func TestParseKeepsShellSyntaxPlain(t *testing.T) {
	tests := []struct {
		command string
		want    []string
	}{
		{"echo a; rm -rf /", []string{"echo", "a;", "rm", "-rf", "/"}},
		{"echo a && touch x", []string{"echo", "a", "&&", "touch", "x"}},
		{"cat f | sh", []string{"cat", "f", "|", "sh"}},
		{"echo $(id)", []string{"echo", "$(id)"}},
		{"echo `id`", []string{"echo", "`id`"}},
		{"cat <(id)", []string{"cat", "<(id)"}},
		{"ls *.go ~", []string{"ls", "*.go", "~"}},
		{"echo a\ntouch x", []string{"echo", "a", "touch", "x"}},
		{"echo 'a b' \"c d\"", []string{"echo", "a b", "c d"}},
		{"echo > out", []string{"echo", ">", "out"}},
	}
	for _, tt := range tests {
		t.Run(tt.command, func(t *testing.T) {
			got, err := Parse(tt.command, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("Parse(%q) = %q, want %q", tt.command, got, tt.want)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		name    string
		command string
		argv    []string
	}{
		{"both", "ls", []string{"ls"}},
		{"neither", "", nil},
		{"empty argv", "", []string{}},
		{"empty program", "", []string{"", "x"}},
		{"unterminated quote", "echo 'a", nil},
		{"nul byte", "", []string{"echo", "a\x00b"}},
		{"too many", "", make([]string, MaxArgs+1)},
		{"too long", "", []string{"echo", strings.Repeat("a", MaxArgvBytes+1)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "too many" {
				for i := range tt.argv {
					tt.argv[i] = "a"
				}
			}
			_, err := Parse(tt.command, tt.argv)
			var pe *protocol.Error
			if !errors.As(err, &pe) || pe.Code != protocol.InvalidRequest {
				t.Fatalf("Parse = %v, want INVALID_REQUEST", err)
			}
		})
	}
}

func TestParseCopiesArgv(t *testing.T) {
	in := []string{"echo", "a"}
	out, err := Parse("", in)
	if err != nil {
		t.Fatal(err)
	}
	out[1] = "changed"
	if in[1] != "a" {
		t.Fatal("Parse aliases the caller's argv")
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"git status", "echo 'a b' \"c\"", "a\\ b", "x;y|z", "'", "\"\\\"", "# c", "$(x) `y`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, command string) {
		argv, err := Parse(command, nil)
		if err != nil {
			var pe *protocol.Error
			if !errors.As(err, &pe) || pe.Code != protocol.InvalidRequest {
				t.Fatalf("Parse(%q) error %v is not INVALID_REQUEST", command, err)
			}
			return
		}
		if len(argv) == 0 || argv[0] == "" {
			t.Fatalf("Parse(%q) = %q without a program", command, argv)
		}
		for _, a := range argv {
			if strings.IndexByte(a, 0) >= 0 {
				t.Fatalf("Parse(%q) kept a NUL byte", command)
			}
		}
		again, err := Parse("", argv)
		if err != nil || !slices.Equal(again, argv) {
			t.Fatalf("argv %q does not round-trip: %v", argv, err)
		}
	})
}
