package decisionlog

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// checkpointedLog writes three host sessions of two decision/outcome
// pairs each to a log whose checkpoint key is in another folder: the
// checkpoints are at seq 4, 8 and 12.
func checkpointedLog(t *testing.T) (path, key string) {
	t.Helper()
	path = filepath.Join(t.TempDir(), "log", "decisions.jsonl")
	key = filepath.Join(t.TempDir(), "config", "decision-log.key")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		l, err := Open(path, Options{CheckpointKey: key, fullLines: true})
		if err != nil {
			t.Fatal(err)
		}
		writePairs(t, l, 2)
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return path, key
}

// rechain rewrites line i with old replaced by new and recomputes every
// later line's prev_hash and hash: the rewrite an attacker who knows the
// format makes, which the unkeyed chain cannot tell from the original.
func rechain(t *testing.T, lines [][]byte, i int, old, new string) [][]byte {
	t.Helper()
	lines[i] = bytes.Replace(lines[i], []byte(old), []byte(new), 1)
	prev := ""
	for j := i; j < len(lines); j++ {
		rec, err := parseLine(lines[j])
		if err != nil {
			t.Fatal(err)
		}
		if prev != "" {
			rec.ev.PrevHash = prev
		}
		out, sum, err := encodeLine(&rec.ev)
		if err != nil {
			t.Fatal(err)
		}
		lines[j], prev = bytes.TrimSuffix(out, []byte("\n")), sum
	}
	return lines
}

func writeLines(t *testing.T, path string, lines [][]byte) {
	t.Helper()
	if err := os.WriteFile(path, joinLines(lines), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointsFindWhatTheChainCannot: each attacker of
// docs/decision-log.md, "Checkpoints", found or, as documented, not.
func TestCheckpointsFindWhatTheChainCannot(t *testing.T) {
	cases := []struct {
		name     string
		attack   func(t *testing.T, path, key string)
		found    string // in an issue; "" means not found (a documented limit)
		chainSaw bool   // Verify alone finds it
	}{
		{"intact", func(*testing.T, string, string) {}, "", false},
		{"a decision rewritten, every later hash recomputed", func(t *testing.T, path, _ string) {
			writeLines(t, path, rechain(t, readLines(t, path), 2, `"outcome":"OK"`, `"outcome":"PERMISSION_DENIED"`))
		}, "changed: the event at seq 4", false},
		{"the tail cut", func(t *testing.T, path, _ string) {
			writeLines(t, path, readLines(t, path)[:8])
		}, "removed: the log ends at seq 8, but seq 12", false},
		{"a checkpoint forged without the key", func(t *testing.T, path, _ string) {
			f, _ := os.OpenFile(CheckpointPath(path), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"seq":12,"hash":"00","time":"2026-01-01T00:00:00Z","mac":"` + strings.Repeat("ab", 32) + "\"}\n")
			f.Close()
		}, "inserted:", false},
		{"the checkpoint file deleted", func(t *testing.T, path, _ string) {
			os.Remove(CheckpointPath(path))
		}, "no checkpoint file", false},
		{"a line changed, hash kept", func(t *testing.T, path, _ string) {
			ls := readLines(t, path)
			ls[1] = bytes.Replace(ls[1], []byte(`"outcome":"OK"`), []byte(`"outcome":"INVALID_REQUEST"`), 1)
			writeLines(t, path, ls)
		}, "", true},
		// Not found, as documented: the log and the checkpoint file cut
		// back together to an earlier consistent state (a rollback).
		{"log and checkpoints rolled back together", func(t *testing.T, path, _ string) {
			writeLines(t, path, readLines(t, path)[:8])
			writeLines(t, CheckpointPath(path), readLines(t, CheckpointPath(path))[:2])
		}, "", false},
		// Not found, as documented: whoever holds the key signs anything.
		{"rewritten and signed again with the key", func(t *testing.T, path, key string) {
			writeLines(t, path, rechain(t, readLines(t, path), 2, `"outcome":"OK"`, `"outcome":"PERMISSION_DENIED"`))
			os.Remove(CheckpointPath(path))
			ls := readLines(t, path)
			last, err := parseLine(ls[len(ls)-1])
			if err != nil {
				t.Fatal(err)
			}
			if err := writeCheckpoint(path, key, last.ev.Seq, last.stored, time.Now()); err != nil {
				t.Fatal(err)
			}
		}, "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path, key := checkpointedLog(t)
			c.attack(t, path, key)
			rep, err := VerifyFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if rep.OK() == c.chainSaw {
				t.Fatalf("the chain alone: %v, want found %v", rep.Issues, c.chainSaw)
			}
			cps, err := VerifyCheckpoints(path, key)
			if err != nil {
				t.Fatal(err)
			}
			if c.found == "" {
				if !cps.OK() {
					t.Fatalf("checkpoints found %v", cps.Issues)
				}
				return
			}
			if cps.OK() || !strings.Contains(strings.Join(cps.Issues, "\n"), c.found) {
				t.Fatalf("checkpoints found %v, want %q", cps.Issues, c.found)
			}
		})
	}
}

// TestCheckpointKeyMustBePrivate: a key others may read is refused, and
// a new key is made 0600.
func TestCheckpointKeyMustBePrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows keeps the key private by its folder's ACL, not by mode bits")
	}
	path, key := checkpointedLog(t)
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key %v, %v", fi.Mode(), err)
	}
	if err := os.Chmod(key, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := VerifyCheckpoints(path, key); !errors.Is(err, ErrKeyExposed) {
		t.Fatalf("a key readable by others: %v", err)
	}
}
