package engine

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/deskbridge/deskbridge/config"
)

// The decision log's compressed rotated files, and the one being
// compressed, are protected like the log itself: no request writes them.
func TestCompressedLogFilesAreProtected(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "decisions.jsonl")
	cfg := &config.Config{DecisionLog: config.DecisionLog{Path: log, Keep: 3}}
	got := protectedPaths(cfg, nil)
	for _, want := range []string{log, log + ".1", log + ".1.gz", log + ".3.gz", log + ".1.gz.tmp"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is not protected", want)
		}
	}
}
