package config

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

func TestImportSourcesCanonical(t *testing.T) {
	wine.Skip(t, wine.NoSymlinks)
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(real)
	c, err := Parse([]byte(`{"import_sources": [` + strconv.Quote(link) + `]}`))
	if err != nil || len(c.ImportSources) != 1 || c.ImportSources[0] != want {
		t.Fatalf("Parse = %v, %v; want [%s]", c, err, want)
	}
	for _, bad := range []string{"relative/dir", filepath.Join(real, "missing"), filepath.Join(real, "file")} {
		os.WriteFile(filepath.Join(real, "file"), nil, 0o644)
		t.Run(bad, func(t *testing.T) {
			if _, err := Parse([]byte(`{"import_sources": [` + strconv.Quote(bad) + `]}`)); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}
