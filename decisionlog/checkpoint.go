package decisionlog

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"time"
)

// A checkpoint is a keyed record of the chain's head, written to a file
// of its own (FILE.checkpoints) when a Log with Options.CheckpointKey
// closes: {"seq", "hash", "time", "mac"}, mac being the hex HMAC-SHA256,
// under a key kept in a file outside the log folder, of "seq\nhash\ntime".
// Without the key, nobody can write a checkpoint that verifies, so a
// rewrite of the log (every line from an edit to the end with fresh
// hashes) no longer matches the checkpoints written before it, and a cut
// below the last checkpoint shows, without a copy of the head kept
// anywhere (docs/decision-log.md, "Checkpoints").
//
// KeyID names the key that made it (KeyID): several configurations
// without a decision_log.path of their own share the default log, each
// with its key, and a checkpoint made with another key than the one
// given is not checked, never taken for a forgery. Checkpoints written
// before key ids have none, and are checked with the key given.
type Checkpoint struct {
	Seq   uint64    `json:"seq"`
	Hash  string    `json:"hash"`
	Time  time.Time `json:"time"`
	KeyID string    `json:"key_id,omitempty"`
	MAC   string    `json:"mac"`
}

// KeyID is the id of a checkpoint key: 8 hex digits of a SHA-256 of it,
// which names the key and reveals nothing of it.
func KeyID(key []byte) string {
	h := sha256.New()
	h.Write([]byte("deskbridge decision-log checkpoint key id\n"))
	h.Write(key)
	return hex.EncodeToString(h.Sum(nil)[:4])
}

// CheckpointPath is the checkpoint file of the log at path.
func CheckpointPath(path string) string { return path + ".checkpoints" }

// keyBytes is the length of a checkpoint key.
const keyBytes = 32

// ErrKeyExposed is returned for a checkpoint key file that others than its
// owner may read or write: a key anyone can read signs anything.
var ErrKeyExposed = errors.New("the checkpoint key file may be read or written by others; it must be 0600")

// LoadKey reads the checkpoint key at path (64 hex digits).
func LoadKey(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("%s: %w", path, ErrKeyExposed)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key, err := hex.DecodeString(string(bytes.TrimSpace(b)))
	if err != nil || len(key) != keyBytes {
		return nil, fmt.Errorf("%s: not a checkpoint key (64 hex digits)", path)
	}
	return key, nil
}

// LoadOrCreateKey reads the checkpoint key at path, or makes a new random
// one there (mode 0600, its folder 0700) when there is none.
func LoadOrCreateKey(path string) ([]byte, error) {
	key, err := LoadKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	key = make([]byte, keyBytes)
	rand.Read(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) { // another host made it meanwhile
		return LoadKey(path)
	}
	if err != nil {
		return nil, err
	}
	_, err = f.WriteString(hex.EncodeToString(key) + "\n")
	if err = errors.Join(err, f.Close()); err != nil {
		return nil, err
	}
	return key, nil
}

// mac is the checkpoint's MAC under key.
func (c Checkpoint) mac(key []byte) string {
	h := hmac.New(sha256.New, key)
	fmt.Fprintf(h, "%d\n%s\n%s", c.Seq, c.Hash, c.Time.UTC().Format(time.RFC3339Nano))
	return hex.EncodeToString(h.Sum(nil))
}

// writeCheckpoint appends a checkpoint of the head this Log last wrote or
// read (seq, hash) to the checkpoint file, in one write.
func writeCheckpoint(path, keyPath string, seq uint64, hash string, now time.Time) error {
	key, err := LoadOrCreateKey(keyPath)
	if err != nil {
		return fmt.Errorf("checkpoint key: %w", err)
	}
	c := Checkpoint{Seq: seq, Hash: hash, Time: now.UTC(), KeyID: KeyID(key)}
	c.MAC = c.mac(key)
	line, err := json.Marshal(c)
	if err != nil {
		return err
	}
	f, err := openAppend(CheckpointPath(path))
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	return errors.Join(err, f.Close())
}

// CheckpointReport is what VerifyCheckpoints found.
type CheckpointReport struct {
	// KeyID is the id of the key the checkpoints were checked with; ""
	// when none was given (CheckCheckpoints with no key).
	KeyID string `json:"key_id,omitempty"`
	// Checkpoints counts the checkpoints taken into account: with a key,
	// those whose MAC verified; without one, every checkpoint read.
	// Latest is the one of the highest seq.
	Checkpoints int        `json:"checkpoints"`
	Latest      Checkpoint `json:"latest"`
	// OtherKeys counts the checkpoints made with another key (not
	// checked).
	OtherKeys int `json:"other_keys,omitempty"`
	// Issues are what a rewrite, a cut or a forgery left; Notes what
	// cannot be checked (a checkpoint of a rotated file deleted since,
	// one made with another key, MACs without a key).
	Issues []string `json:"issues,omitempty"`
	Notes  []string `json:"notes,omitempty"`
}

// OK reports whether the checkpoints found nothing wrong.
func (r *CheckpointReport) OK() bool { return len(r.Issues) == 0 }

// VerifyCheckpoints checks the log at path against its checkpoint file
// with the key at keyPath (CheckCheckpoints).
func VerifyCheckpoints(path, keyPath string) (CheckpointReport, error) {
	key, err := LoadKey(keyPath)
	if err != nil {
		return CheckpointReport{}, err
	}
	return CheckCheckpoints(path, key)
}

// CheckCheckpoints checks the log at path against its checkpoint file:
// every checkpoint made with key (the same key id, or none) must carry a
// valid MAC, and the event it names (seq) must still be in the log with
// the hash it had. With a key, a log with no checkpoint file, or none
// made with the key, is an issue: the host writes one whenever a key is
// configured. With no key (nil), the MACs are not checked: each
// checkpoint must still match the log, which finds a rewrite or a cut by
// whoever left the checkpoint file alone, and a note says the rest.
func CheckCheckpoints(path string, key []byte) (CheckpointReport, error) {
	var rep CheckpointReport
	if key != nil {
		rep.KeyID = KeyID(key)
	}
	cps, err := readCheckpoints(CheckpointPath(path), key, &rep)
	if err != nil {
		return rep, err
	}
	hashes, first, last := map[uint64]string{}, uint64(0), uint64(0)
	for ev, err := range Read(path) {
		if err != nil || ev.Seq == 0 {
			continue // Verify reports the lines that are not events
		}
		hashes[ev.Seq] = ev.Hash
		if first == 0 || ev.Seq < first {
			first = ev.Seq
		}
		last = max(last, ev.Seq)
	}
	for _, c := range cps {
		h, ok := hashes[c.Seq]
		switch {
		case ok && h != c.Hash:
			rep.Issues = append(rep.Issues, fmt.Sprintf("changed: the event at seq %d is not the one checkpointed at %s (hash %s, now %s): the log was rewritten",
				c.Seq, c.Time.Format(time.RFC3339), c.Hash, h))
		case !ok && c.Seq > last:
			rep.Issues = append(rep.Issues, fmt.Sprintf("removed: the log ends at seq %d, but seq %d was checkpointed at %s: its tail was cut",
				last, c.Seq, c.Time.Format(time.RFC3339)))
		case !ok && c.Seq < first:
			rep.Notes = append(rep.Notes, fmt.Sprintf("seq %d is in a rotated file deleted since; not checked", c.Seq))
		case !ok:
			rep.Issues = append(rep.Issues, fmt.Sprintf("removed: the event at seq %d, checkpointed at %s, is not in the log", c.Seq, c.Time.Format(time.RFC3339)))
		}
	}
	return rep, nil
}

// readCheckpoints reads the checkpoint file, keeping the checkpoints made
// with key whose MAC verifies (every one when key is nil) and reporting
// the others.
func readCheckpoints(name string, key []byte, rep *CheckpointReport) ([]Checkpoint, error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		if key == nil {
			rep.Notes = append(rep.Notes, "there is no checkpoint file ("+filepath.Base(name)+"): nothing but the chain was checked")
		} else {
			rep.Issues = append(rep.Issues, "removed: there is no checkpoint file ("+filepath.Base(name)+"), though a key is kept for it")
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Checkpoint
	others := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		var c Checkpoint
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			rep.Notes = append(rep.Notes, name+":"+strconv.Itoa(n)+": not a checkpoint (a torn line?)")
			continue
		}
		switch {
		case key == nil:
		case c.KeyID != "" && c.KeyID != rep.KeyID:
			rep.OtherKeys++
			others[c.KeyID]++
			continue
		case !hmac.Equal([]byte(c.mac(key)), []byte(c.MAC)):
			rep.Issues = append(rep.Issues, fmt.Sprintf("inserted: %s:%d: a checkpoint whose MAC does not verify with key id %s (forged)", name, n, rep.KeyID))
			continue
		}
		out = append(out, c)
		if rep.Checkpoints++; c.Seq >= rep.Latest.Seq {
			rep.Latest = c
		}
	}
	for _, id := range slices.Sorted(maps.Keys(others)) {
		rep.Notes = append(rep.Notes, fmt.Sprintf("%d checkpoint(s) not checked (key id %s): made with another key, by another configuration sharing this log", others[id], id))
	}
	switch {
	case key == nil && len(out) > 0:
		rep.Notes = append(rep.Notes, fmt.Sprintf("the %d checkpoint(s) match the log, but their MACs were not checked (no key given): whoever rewrote the log could have rewritten them too", len(out)))
	case key != nil && len(out) == 0 && rep.OK():
		rep.Issues = append(rep.Issues, fmt.Sprintf("removed: no checkpoint made with this key (key id %s) is in %s", rep.KeyID, filepath.Base(name)))
	}
	return out, sc.Err()
}
