// Package runstore keeps the state of agent runs (docs/protocol.md, "Agent messages") on
// disk, so that a run's limits hold across reconnects: a new host process
// sees the rounds that earlier ones used.
//
// The store is a bbolt database (go.etcd.io/bbolt) in the host's state
// folder, opened for each operation and closed right after. bbolt takes
// an exclusive file lock while open (flock on Unix, LockFileEx on
// Windows) and waits for it up to Timeout, so host processes started
// together for several browser ports take turns; every change is one
// fsynced transaction, so a process killed mid-round loses nothing and
// never leaves a half-written record. A file lock plus atomic-rename JSON
// store would need platform lock code of its own and rewrite every run on
// each round; bbolt already does both portably.
package runstore

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// FileName is the database's name inside the state folder.
const FileName = "agent-runs.db"

// DefaultTimeout is how long an operation waits for another process's lock.
const DefaultTimeout = 5 * time.Second

// Errors reported by the store; callers use errors.Is.
var (
	ErrNotFound    = errors.New("runstore: unknown run")
	ErrEnded       = errors.New("runstore: run ended")
	ErrOtherOrigin = errors.New("runstore: run belongs to another origin")
	ErrRoundLimit  = errors.New("runstore: round limit reached")
)

var bucket = []byte("runs")

// Run is the stored state of one agent run.
type Run struct {
	ID         string    `json:"run_id"`
	Origin     string    `json:"origin"`
	Mode       string    `json:"mode"`
	Workspace  string    `json:"workspace"`
	RoundsUsed int       `json:"rounds_used"`
	Ended      bool      `json:"ended"`
	Created    time.Time `json:"created"`
	// Limits are the limits fixed for the run when it started, by name
	// (max_file_bytes, max_lines, max_results, max_total_chars,
	// max_rounds); the store keeps them and does not read them.
	Limits map[string]int `json:"limits,omitempty"`
}

// Store is a run store in one state folder. It holds no open handle; it
// is safe for concurrent use by goroutines and by processes.
type Store struct {
	path string
	// Timeout is how long an operation waits for the database lock.
	Timeout time.Duration
}

// Open returns the store in the folder dir, creating the folder (0700).
func Open(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &Store{path: filepath.Join(dir, FileName), Timeout: DefaultTimeout}, nil
}

// Start records a new run and returns it with a fresh random id.
func (s *Store) Start(origin, mode, workspace string) (Run, error) {
	return s.StartRun(Run{Origin: origin, Mode: mode, Workspace: workspace})
}

// StartRun records r as a new run with a fresh random id, no rounds used
// and the current time, and returns it.
func (s *Store) StartRun(r Run) (Run, error) {
	r.ID, r.RoundsUsed, r.Ended, r.Created = rand.Text(), 0, false, time.Now().UTC()
	err := s.update(func(b *bolt.Bucket) error { return put(b, r) })
	return r, err
}

// Get returns the run id, or ErrNotFound.
func (s *Store) Get(id string) (Run, error) {
	var r Run
	err := s.view(func(b *bolt.Bucket) (err error) { r, err = get(b, id); return err })
	return r, err
}

// BeginRound atomically counts one more round of run id for origin. It
// refuses (ErrNotFound, ErrEnded, ErrOtherOrigin, ErrRoundLimit) without
// counting when the run is unknown, ended, another origin's, or has
// already used maxRounds rounds. It returns the run after the round.
func (s *Store) BeginRound(id, origin string, maxRounds int) (Run, error) {
	return s.change(id, origin, func(r *Run) error {
		if r.RoundsUsed >= maxRounds {
			return ErrRoundLimit
		}
		r.RoundsUsed++
		return nil
	})
}

// End marks run id of origin as ended and returns it. Ending an ended run
// is not an error.
func (s *Store) End(id, origin string) (Run, error) {
	var out Run
	err := s.update(func(b *bolt.Bucket) error {
		r, err := get(b, id)
		if err == nil && r.Origin != origin {
			err = ErrOtherOrigin
		}
		if err != nil {
			return err
		}
		r.Ended = true
		out = r
		return put(b, r)
	})
	return out, err
}

// change applies f to a live run of origin in one transaction.
func (s *Store) change(id, origin string, f func(*Run) error) (Run, error) {
	var out Run
	err := s.update(func(b *bolt.Bucket) error {
		r, err := get(b, id)
		switch {
		case err != nil:
			return err
		case r.Origin != origin:
			return ErrOtherOrigin
		case r.Ended:
			return ErrEnded
		}
		if err := f(&r); err != nil {
			return err
		}
		out = r
		return put(b, r)
	})
	return out, err
}

// update runs f in a write transaction of a freshly opened database.
func (s *Store) update(f func(*bolt.Bucket) error) error {
	db, err := bolt.Open(s.path, 0o600, &bolt.Options{Timeout: s.Timeout})
	if err != nil {
		return err
	}
	defer db.Close()
	return db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucket)
		if err != nil {
			return err
		}
		return f(b)
	})
}

// view runs f in a read transaction; a missing database holds no runs.
func (s *Store) view(f func(*bolt.Bucket) error) error {
	if _, err := os.Stat(s.path); errors.Is(err, os.ErrNotExist) {
		return f(nil)
	}
	db, err := bolt.Open(s.path, 0o600, &bolt.Options{Timeout: s.Timeout, ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	return db.View(func(tx *bolt.Tx) error { return f(tx.Bucket(bucket)) })
}

// get decodes run id from b (which may be nil).
func get(b *bolt.Bucket, id string) (Run, error) {
	var r Run
	if b == nil {
		return r, ErrNotFound
	}
	v := b.Get([]byte(id))
	if v == nil {
		return r, ErrNotFound
	}
	return r, json.Unmarshal(v, &r)
}

// put encodes r into b under its id.
func put(b *bolt.Bucket, r Run) error {
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return b.Put([]byte(r.ID), v)
}
