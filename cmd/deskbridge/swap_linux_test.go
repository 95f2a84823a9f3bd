//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// TestSwapRaceNeverLeadsOut reads and lists a folder of the workspace
// while another goroutine keeps exchanging it, atomically, with a symlink
// to a folder outside: whichever state the facts (an openat2 that refuses
// symlinks, else EvalSymlinks) and the action (an openat2 beneath the
// workspace, else the checked walk) each see, no response may carry a
// byte or a name of the outside folder.
func TestSwapRaceNeverLeadsOut(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	out := filepath.Join(filepath.Dir(ws), "out")
	for p, content := range map[string]string{
		filepath.Join(ws, "dir", "f.txt"):           "inside",
		filepath.Join(out, "f.txt"):                 "OUTSIDE-CANARY",
		filepath.Join(out, "outside-only-name.txt"): "OUTSIDE-CANARY",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir, swap := filepath.Join(ws, "dir"), filepath.Join(ws, "swap")
	if err := os.Symlink(out, swap); err != nil {
		t.Fatal(err)
	}
	if err := unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, swap, unix.RENAME_EXCHANGE); err != nil {
		t.Skipf("no RENAME_EXCHANGE here: %v", err)
	}
	unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, swap, unix.RENAME_EXCHANGE)

	p := start(t, []string{"--config", cfg, origin})
	var stop atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for !stop.Load() {
			unix.Renameat2(unix.AT_FDCWD, dir, unix.AT_FDCWD, swap, unix.RENAME_EXCHANGE)
		}
	})
	const rounds, batch = 25, 16
	okReads, okLists := 0, 0
	for round := range rounds {
		var all []byte
		for i := range batch {
			action, path := "read_file", filepath.Join(dir, "f.txt")
			if i%2 == 1 {
				action, path = "list_folder", dir
			}
			all = append(all, frame([]byte(fmt.Sprintf(`{"version":1,"id":"r%d-%d","action":%q,"arguments":{"path":%q}}`, round, i, action, path)))...)
		}
		p.send(all)
		for range batch {
			r := p.recv()
			if bytes.Contains(r.Data, []byte("OUTSIDE")) || bytes.Contains(r.Data, []byte("outside-only")) {
				stop.Store(true)
				t.Fatalf("%s: a response carries the outside folder: %s", r.ID, r.Data)
			}
			if r.Success && bytes.Contains(r.Data, []byte(`"content"`)) {
				okReads++
			} else if r.Success {
				okLists++
			}
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d reads and %d listings succeeded while the folder was swapped", okReads, okLists)
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}
