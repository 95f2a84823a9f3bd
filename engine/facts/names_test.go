package facts

import (
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/corpus"
)

// TestSensitiveNames runs the corpus of secret-bearing and script-defining
// names through the classifier, both as the path facts see them (absolute,
// below a workspace) and as the agent's view does (relative to it).
func TestSensitiveNames(t *testing.T) {
	c := NewClassifier(nil, nil)
	for _, tc := range corpus.SensitiveNames(t) {
		t.Run(tc.Path, func(t *testing.T) {
			if got := c.ClassifySlash("/work/ws/" + tc.Path); got != tc.Class {
				t.Errorf("ClassifySlash(/work/ws/%s) = %q, want %q", tc.Path, got, tc.Class)
			}
			if got := c.ClassifySlash(tc.Path); got != tc.Class {
				t.Errorf("ClassifySlash(%s) = %q, want %q (the agent's relative form)", tc.Path, got, tc.Class)
			}
		})
	}
}

// TestHomeExecutes anchors bin and go/bin at the home folder: a project's
// own bin/ is not a folder users run programs from by name.
func TestHomeExecutes(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	real, err := filepath.EvalSymlinks(home)
	if err != nil {
		t.Fatal(err)
	}
	c := NewClassifier(nil, nil)
	for p, want := range map[string]string{
		filepath.Join(real, "bin", "xdg-open"):            Executes,
		filepath.Join(real, "go", "bin", "gopls"):         Executes,
		filepath.Join(real, "src", "proj", "bin", "x.sh"): "",
	} {
		if got := c.Classify(p); got != want {
			t.Errorf("Classify(%s) = %q, want %q", p, got, want)
		}
	}
}
