package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

// TestTrailingSeparatorOnAFileIsRefused: a path that ends with a separator
// names a folder; given for a file it is refused before the policy and the
// file is left as it was, as open(2) would answer ENOTDIR.
func TestTrailingSeparatorOnAFileIsRefused(t *testing.T) {
	th := newTestHost(t, nil)
	file := filepath.Join(th.ws, "real.txt")
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		action string
		args   map[string]any
	}{
		{"read_file", map[string]any{"path": file + "/"}},
		{"write_file", map[string]any{"path": file + "/", "content": "changed"}},
		{"patch_file", map[string]any{"path": file + "/", "edits": []any{map[string]any{"old_text": "keep", "new_text": "changed"}}}},
		{"list_folder", map[string]any{"path": file + "/"}},
	}
	for _, c := range cases {
		t.Run(c.action, func(t *testing.T) {
			mustCode(t, th.call(t, c.action, c.args), string(protocol.InvalidRequest))
		})
	}
	if b, _ := os.ReadFile(file); string(b) != "keep" {
		t.Fatalf("the file changed: %q", b)
	}
	mustCode(t, th.call(t, "list_folder", map[string]any{"path": th.ws + "/"}), "ok")
}
