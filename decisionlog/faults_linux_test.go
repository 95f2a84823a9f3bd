package decisionlog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// readOnlyDir makes dir refuse renames and new files, as a folder made
// read-only does: chmod for a user, and for root (whom the mode does not
// stop) the immutable attribute. It returns the function that makes the
// folder writable again, and skips the test where neither works.
func readOnlyDir(t *testing.T, dir string) (writable func()) {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(dir, 0o500); err != nil {
			t.Fatal(err)
		}
		return func() { os.Chmod(dir, 0o700) }
	}
	if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot make %s read-only for root (chattr +i: %v: %s)", dir, err, out)
	}
	undo := func() { exec.Command("chattr", "-i", dir).Run() }
	t.Cleanup(undo)
	return undo
}

// TestFailedRotationRecoversOnTheNextAppend: a rotation that fails (the
// folder read-only when MaxBytes is crossed) refuses the append, and
// every append while the folder stays read-only; once it is writable
// again, the next append rotates and is written, and the chain is intact
// (#40.1: the closed file used to stay in use and refuse everything).
func TestFailedRotationRecoversOnTheNextAppend(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "decisions.jsonl")
	l, err := Open(path, Options{MaxBytes: 8 << 10, SyncInterval: SyncAlways})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	writePairs(t, l, 2)
	writable := readOnlyDir(t, dir)
	refused := 0
	for i := 0; i < 100 && refused == 0; i++ {
		if err := l.WriteDecision(context.Background(), sampleEvent(i)); err != nil {
			refused++
		}
	}
	if refused == 0 {
		t.Fatal("no append failed though the folder was read-only across MaxBytes")
	}
	if err := l.WriteDecision(context.Background(), sampleEvent(200)); err == nil {
		t.Fatal("an append was written while the rotation it needs cannot be made (not fail-closed)")
	}
	writable()
	for i := range 3 {
		ev := sampleEvent(300 + i)
		if err := l.WriteDecision(context.Background(), ev); err != nil {
			t.Fatalf("append %d after the folder is writable again: %v", i, err)
		}
		if err := l.WriteOutcome(ev, OutcomeOK, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Sync(); err != nil {
		t.Errorf("Sync after the recovery: %v", err)
	}
	files, _, _ := Files(path)
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() || len(files) < 2 {
		t.Errorf("after the recovery: files %v, report %+v, %v; want a rotation and an intact chain", files, rep, err)
	}
}

// smallDisk mounts a tmpfs of size bytes on a new folder and returns it;
// it skips the test when mounting is not allowed here.
func smallDisk(t *testing.T, size string) string {
	t.Helper()
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size="+size+",mode=0700"); err != nil {
		t.Skipf("cannot mount a small tmpfs (%v)", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// fill writes to name until the file system is full.
func fill(t *testing.T, name string) {
	t.Helper()
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 512)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, unix.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	for { // the last bytes, which a block no longer fits
		if _, err := f.Write(block[:1]); err != nil {
			return
		}
	}
}

// TestFullDiskCutsTheTornPieceAndSaysSo: appends to a full file system
// fail (the request is refused), the piece a short write left is cut
// off, and once space is freed the next append first writes a note of
// the failure: the log verifies intact, with no malformed line (#40.2).
func TestFullDiskCutsTheTornPieceAndSaysSo(t *testing.T) {
	dir := smallDisk(t, "64k")
	path := filepath.Join(dir, "decisions.jsonl")
	l, err := Open(path, Options{SyncInterval: SyncAlways})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	writePairs(t, l, 3)
	filler := filepath.Join(dir, "filler")
	fill(t, filler)
	before, _ := os.Stat(path)
	failed := 0
	for i := range 20 {
		if err := l.WriteDecision(context.Background(), sampleEvent(100+i)); err != nil {
			failed++
		}
	}
	if failed == 0 {
		t.Fatal("no append failed on a full file system")
	}
	after, _ := os.Stat(path)
	if after.Size() != before.Size() {
		// Each failed write is cut back; what succeeded in between (none,
		// on a full disk) would be whole lines.
		if rep, _ := VerifyFile(path); !rep.OK() {
			t.Fatalf("while the disk is full the log holds a torn piece: %v", kinds(rep))
		}
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	writePairs(t, l, 2)
	rep, err := VerifyFile(path)
	if err != nil || !rep.OK() {
		t.Fatalf("after space was freed: %v %v; want intact (a full disk is not tampering)", kinds(rep), err)
	}
	var notes []Event
	for ev, err := range Read(path) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Phase == PhaseNote {
			notes = append(notes, ev)
		}
	}
	if len(notes) != 1 || notes[0].Detail["event"] != "write_failed" {
		t.Fatalf("notes %+v; want one write_failed note", notes)
	}
	d := notes[0].Detail
	if fmt.Sprint(d["failures"]) != fmt.Sprint(failed) || fmt.Sprint(d["bytes_cut"]) == "0" || d["error"] != "no space left on device" {
		t.Errorf("note detail %v; want %d failures, the bytes cut and the error", d, failed)
	}
}
