package wsview

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAttack2HardLinkToOutsideSecret: a workspace file that is a hard link
// to a secret outside the workspace (made by an archive the user unpacked,
// or by a build script) is read and searched by the agent under its
// innocent name. The file actions refuse such a file (workspace.hard_link);
// the agent view shows its content.
func TestAttack2HardLinkToOutsideSecret(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "home", ".ssh", "id_rsa")
	ws := filepath.Join(base, "ws")
	writeTree(t, base, map[string]string{"home/.ssh/id_rsa": marker + "\n", "ws/README.md": "hello\n"})
	if err := os.Link(outside, filepath.Join(ws, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	v := openView(t, ws)
	lim := Limits{}.Normalized()

	t.Run("read_file", func(t *testing.T) {
		if d, perr := v.Read(context.Background(), "notes.txt", 0, 0, lim); perr == nil && strings.Contains(d.Content, marker) {
			t.Fatalf("read_file returned the outside secret through a hard link: %q", d.Content)
		}
	})
	t.Run("search_workspace", func(t *testing.T) {
		d, perr := v.Search(context.Background(), Query{Text: "MARKER"}, lim)
		if perr != nil {
			t.Fatal(perr)
		}
		for _, m := range d.Matches {
			if strings.Contains(m.Text, marker) {
				t.Fatalf("search_workspace returned the outside secret through a hard link: %+v", m)
			}
		}
	})
}
