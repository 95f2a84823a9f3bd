//go:build unix

package wsview

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestAttack2FIFOSwapHangsRead: readWhole (and readSmall, for .gitignore
// files) lstat a name, see a regular file, then open it without
// O_NONBLOCK. A FIFO renamed over the name between the two calls makes
// the open wait for a writer that never comes: the agent's round, and the
// host process serving it, hang. The search path opens with O_NONBLOCK;
// these two do not.
func TestAttack2FIFOSwapHangsRead(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"notes.txt": "hello\n", "plain": "hello\n"})
	fifo := filepath.Join(dir, "fifo")
	v := openView(t, dir)
	lim := Limits{}.Normalized()

	var stop atomic.Bool
	swapped := make(chan struct{})
	go func() { // swap a FIFO and a regular file over notes.txt, again and again
		defer close(swapped)
		name := filepath.Join(dir, "notes.txt")
		for !stop.Load() {
			if err := syscall.Mkfifo(fifo, 0o600); err != nil {
				return
			}
			os.Rename(fifo, name)
			os.WriteFile(filepath.Join(dir, "plain"), []byte("hello\n"), 0o644)
			os.Rename(filepath.Join(dir, "plain"), name)
		}
	}()
	defer func() {
		stop.Store(true)
		<-swapped
	}()

	done := make(chan struct{})
	go func() {
		defer close(done)
		for end := time.Now().Add(4 * time.Second); time.Now().Before(end) && !stop.Load(); {
			v.Read(context.Background(), "notes.txt", 0, 0, lim)
		}
	}()
	for {
		select {
		case <-done:
			return
		case <-time.After(10 * time.Second):
			stop.Store(true)
			<-swapped
			// Release the blocked open by opening the FIFO for writing.
			if w, err := os.OpenFile(filepath.Join(dir, "notes.txt"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatal("read_file blocked opening a FIFO swapped in after the lstat")
		}
	}
}
