// Package procreg is the register of DeskBridge's detached processes: the
// preview and panel servers, the clipboard owner and the warm process,
// which outlive the host that started them. Each registers itself with a small record in the
// state folder's processes/ folder (kind, pid, port, start, expiry, user,
// and what identifies the process beyond its pid), written whole and
// removed when it exits, so that `deskbridge status` lists them and
// `deskbridge status --stop` ends them.
//
// A pid is recycled once its process ends. Stop signals a process only
// when the process now running under the recorded pid is the one that
// wrote the record (Linux: the same start time since boot, the same user,
// the same program, checked through a pidfd that the signal then goes
// to); a record whose process has ended, or whose pid another process now
// holds, is stale: List reports it, Drop removes it, and nothing is
// signalled.
//
// Platform caveats:
//   - Linux verifies a process's identity; other systems cannot
//     (Identity returns ErrUnverifiable), so there Stop refuses and the
//     processes end at their expiry.
package procreg

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/internal/atomicfile"
)

// Kinds of detached process.
const (
	KindPanel     = "panel"
	KindPreview   = "preview"
	KindClipboard = "clipboard"
	// KindWarm is a warm process (deskbridge warm-serve): it has no
	// expiry of its own, and ends once idle.
	KindWarm = "warm"
)

// Dir is the register's folder in the state folder stateDir.
func Dir(stateDir string) string { return filepath.Join(stateDir, "processes") }

// Record is one registered process, as its file holds it.
type Record struct {
	Kind    string    `json:"kind"`
	PID     int       `json:"pid"`
	Port    int       `json:"port,omitempty"`
	Started time.Time `json:"started"`
	Expires time.Time `json:"expires"`
	UID     int       `json:"uid"`
	// Identity is what tells this process from another that later gets
	// its pid (Identity).
	Identity ProcID `json:"identity"`
}

// ProcID identifies a running process beyond its pid.
type ProcID struct {
	// StartTicks is the process's start time since boot, in clock ticks
	// (/proc/PID/stat, field 22).
	StartTicks uint64 `json:"start_ticks"`
	// Exe is the program it runs.
	Exe string `json:"exe"`
}

// ErrUnverifiable reports a system on which a process's identity cannot
// be read, so a record cannot be matched to the process under its pid.
var ErrUnverifiable = errors.New("procreg: process identity cannot be verified on this system")

// Register records the calling process as kind, listening on port (0 for
// none) until expires (zero: no fixed end), in dir; Unregister removes the record (call it on
// exit).
func Register(dir, kind string, port int, expires time.Time) error {
	id, err := Identity(os.Getpid())
	if err != nil && !errors.Is(err, ErrUnverifiable) {
		return err
	}
	r := Record{Kind: kind, PID: os.Getpid(), Port: port, Started: time.Now().UTC(), Expires: expires.UTC(), UID: os.Getuid(), Identity: id}
	return writeWhole(recordPath(dir, r.Kind, r.PID), r)
}

// Unregister removes the calling process's record of kind from dir.
func Unregister(dir, kind string) { os.Remove(recordPath(dir, kind, os.Getpid())) }

// recordPath is the file of the record of kind and pid.
func recordPath(dir, kind string, pid int) string {
	return filepath.Join(dir, kind+"-"+strconv.Itoa(pid)+".json")
}

// writeWhole writes r to p through a temporary file renamed into place,
// so a reader never sees half a record.
func writeWhole(p string, r Record) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, b)
}

// Entry is a record found in the register with what was found of its
// process.
type Entry struct {
	Record
	// Path is the record's file.
	Path string
	// Unverified: the system cannot tell whether the process is still the
	// recorded one (ErrUnverifiable).
	Unverified bool
}

// List returns the records in dir whose process is still running as
// recorded, oldest first, and the stale ones: records of a process that
// has ended, or whose pid now belongs to another process, and unreadable
// record files. It changes nothing; Drop removes a stale record.
func List(dir string) (live, stale []Entry, err error) {
	names, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, n := range names {
		if !strings.HasSuffix(n.Name(), ".json") || strings.HasPrefix(n.Name(), ".") {
			continue
		}
		e, ok := readEntry(filepath.Join(dir, n.Name()))
		switch {
		case ok && (e.Unverified || Running(e.Record)):
			live = append(live, e)
		default:
			stale = append(stale, e)
		}
	}
	sortByStart(live)
	return live, stale, nil
}

// Drop removes the record of e, a stale entry of List; its process is
// not signalled.
func Drop(e Entry) error { return os.Remove(e.Path) }

// readEntry reads a record file; ok is false for a file that is not a
// well-formed record of its own name.
func readEntry(p string) (Entry, bool) {
	e := Entry{Path: p}
	b, err := os.ReadFile(p)
	if err != nil || json.Unmarshal(b, &e.Record) != nil || e.PID <= 0 || filepath.Base(p) != e.Kind+"-"+strconv.Itoa(e.PID)+".json" {
		return e, false
	}
	if _, err := Identity(os.Getpid()); errors.Is(err, ErrUnverifiable) {
		e.Unverified = true
	}
	return e, true
}

// sortByStart orders entries by their start, oldest first.
func sortByStart(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int { return a.Started.Compare(b.Started) })
}

// Running reports whether the process under r's pid is the one r
// records: same user, same start, same program.
func Running(r Record) bool {
	id, err := Identity(r.PID)
	return err == nil && r.UID == os.Getuid() && owner(r.PID) == r.UID && sameProcess(id, r.Identity)
}

// sameProcess compares two identities; a program replaced on disk since
// the process started reads as "PATH (deleted)" and is still the same.
func sameProcess(now, recorded ProcID) bool {
	return now.StartTicks == recorded.StartTicks && recorded.Exe != "" &&
		strings.TrimSuffix(now.Exe, " (deleted)") == strings.TrimSuffix(recorded.Exe, " (deleted)")
}

// StopError reports a process Stop did not end.
type StopError struct {
	Kind string
	PID  int
	Err  error
}

// Error implements error.
func (e *StopError) Error() string {
	return fmt.Sprintf("procreg: %s (pid %d) not stopped: %v", e.Kind, e.PID, e.Err)
}

// Unwrap returns the cause.
func (e *StopError) Unwrap() error { return e.Err }

// ErrNotOurs reports a record whose pid now belongs to another process,
// or to none: it was not signalled.
var ErrNotOurs = errors.New("the process under the recorded pid is not the one recorded")

// Stop ends the process of e: SIGTERM, and SIGKILL when it still runs
// after grace. It signals only the process that wrote the record
// (Running), through a handle taken before the check, so a pid recycled
// in between is never signalled. The record is removed once the process
// has ended, and also when it was stale (ErrNotOurs).
func Stop(e Entry, grace time.Duration) error {
	err := stop(e.Record, grace)
	if err == nil || errors.Is(err, ErrNotOurs) {
		os.Remove(e.Path)
	}
	if err != nil {
		return &StopError{Kind: e.Kind, PID: e.PID, Err: err}
	}
	return nil
}
