package decisionlog

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/deskbridge/deskbridge/protocol"
)

// Defaults used where Options leaves a field zero.
const (
	DefaultKeep         = 5
	DefaultSyncInterval = 100 * time.Millisecond
	// DefaultCheckpointInterval is how often a Log that stays open writes
	// a checkpoint and a signed head (Options.CheckpointInterval).
	DefaultCheckpointInterval = 5 * time.Minute
)

// SyncAlways as Options.SyncInterval makes every append wait for fsync.
const SyncAlways time.Duration = -1

// ErrClosed is returned by a Log used after Close.
var ErrClosed = errors.New("decisionlog: log is closed")

// Options configure a Log. The zero value is usable: no rotation, fsync
// grouped every DefaultSyncInterval.
type Options struct {
	// MaxBytes rotates the file before an append would take it past this
	// size. Zero never rotates.
	MaxBytes int64
	// Keep is how many rotated files (FILE.1 … FILE.Keep) are kept; the
	// oldest is deleted. Zero means DefaultKeep; more than MaxRotated means
	// MaxRotated.
	Keep int
	// SyncInterval groups fsync: the file is flushed to stable storage at
	// most this long after an append, at rotation and at Close. Zero means
	// DefaultSyncInterval; SyncAlways flushes every line before returning.
	SyncInterval time.Duration
	// Labels are written into events that have none.
	Labels Labels
	// Masker, if set, names the parts of each decision event to remove or
	// replace before it is written.
	Masker Masker
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
	// CheckpointKey, if set, is the path of the checkpoint key (made
	// there, 0600, when missing): Close then appends a keyed checkpoint
	// of the last line this Log wrote to FILE.checkpoints
	// (checkpoint.go), and a signed head of the log to FILE.heads with
	// the Ed25519 key decision-log.sign.key beside it (heads.go). Keep it
	// outside the log's folder.
	CheckpointKey string
	// CheckpointInterval is how often a Log that stays open also writes
	// a checkpoint and a signed head of what it appended (at most once an
	// interval, from its grouped flush, never on an append), so that a
	// long-lived process's log gets heads while it runs. Zero means
	// DefaultCheckpointInterval; below zero, only Close writes them. It
	// needs CheckpointKey and a grouped flush (SyncInterval above zero).
	CheckpointInterval time.Duration

	// NoCompress leaves rotated files as they are; by default FILE.1 is
	// compressed to FILE.1.gz at rotation (compress.go).
	NoCompress bool

	// fullLines writes every line in full, as logs were written before
	// the compact form (tests of the chain on old-format logs).
	fullLines bool
}

// Log appends chained events to one decision-log file. It is safe for
// concurrent use, and several processes may append to the same file: each
// append holds an exclusive lock on FILE.lock while it reads the chain's
// tail and writes its line.
//
// Caveats:
//   - FILE.lock and the rotated files FILE.1 … FILE.Keep live beside FILE
//     and belong to the log; the host must treat them as protected.
//   - On Windows the file is opened with FILE_SHARE_DELETE so that another
//     process can rotate it.
type Log struct {
	path string
	name statName // path, ready for the stat of every append
	opts Options

	mu      sync.Mutex
	lock    *os.File
	f       *os.File
	held    fileID    // f's identity, for noticing rotation by others
	reopen  bool      // f was closed by a rotation that failed: open the path again
	cut     *writeCut // a write that failed part way, to note in the log
	noteOut bool      // the note of cut is among the lines of out
	tail    tailState
	dirty   bool
	syncErr error
	closed  bool

	leased    bool        // the file lock is held across appends (lease)
	leaseEnd  *time.Timer // releases it when the lease ends
	contended time.Time   // no lease before this: another writer was seen

	queue   []*lineBuf // outcome lines encoded, not yet linked (QueueOutcome)
	queued  int        // their bytes
	out     []byte     // lines linked under the lock, not yet written
	head    string     // the hash of the last line this Log wrote (Head)
	headSeq uint64     // its seq, for the checkpoint Close writes
	signed  string     // the head the last checkpoint covered
	signAt  time.Time  // when the next periodic checkpoint is due

	ctxMu sync.Mutex
	ctx   *Event // the context line decisions name (context.go)
	ctxIn string // the id of the context line in the active file; l.mu

	stopOnce sync.Once
	stop     chan struct{}
	done     chan struct{}
}

// Open opens (creating if needed) the decision log at path for appending.
func Open(path string, opts Options) (*Log, error) {
	opts = opts.withDefaults()
	name, err := newStatName(path)
	if err != nil {
		return nil, err
	}
	lock, err := openAppend(path + ".lock")
	if err != nil {
		return nil, err
	}
	f, err := openAppend(path)
	if err != nil {
		lock.Close()
		return nil, err
	}
	l := &Log{path: path, name: name, opts: opts, lock: lock, signAt: time.Now().Add(opts.CheckpointInterval)}
	if _, err := l.hold(f); err != nil {
		lock.Close()
		return nil, err
	}
	if opts.SyncInterval > 0 {
		l.stop, l.done = make(chan struct{}), make(chan struct{})
		go l.syncLoop()
	}
	return l, nil
}

func (o Options) withDefaults() Options {
	if o.Keep <= 0 {
		o.Keep = DefaultKeep
	}
	o.Keep = min(o.Keep, MaxRotated)
	if o.SyncInterval == 0 {
		o.SyncInterval = DefaultSyncInterval
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.CheckpointInterval == 0 {
		o.CheckpointInterval = DefaultCheckpointInterval
	}
	return o
}

// WriteDecision masks ev and appends it as the decision event, before the
// action takes effect. It fills in ev's DecisionID (when empty), Timestamp
// (when zero), Labels (when empty), Phase, Seq, PrevHash and Hash; ev.Input
// itself is never modified. ev.Outcome must be OutcomeOK or a v1 code.
// The caller keeps ev until the action is done and then writes the outcome
// with WriteOutcome or QueueOutcome: the Log keeps nothing between the two.
func (l *Log) WriteDecision(ctx context.Context, ev *Event) error {
	if err := checkCode(ev.Outcome); err != nil {
		return err
	}
	ev.Phase = PhaseDecision
	if ev.DecisionID == "" {
		ev.DecisionID = newID()
	}
	if ev.Path == "" {
		ev.Path = PolicyPath
	}
	l.stamp(ev)
	form, cev := formDecision, (*Event)(nil)
	if l.opts.fullLines {
		form = formFull
	} else {
		cev = l.contextFor(ev)
		ev.Context = cev.Context
	}
	ops, maskErr := l.maskOps(ctx, ev)
	if len(ops) == 0 && maskErr == nil {
		// Nothing to mask: the caller's event is written as it is, and
		// append sets its chain members.
		if form == formDecision && !completeInput(ev.Input, ev.Erased) {
			form = formFull
		}
		if err := l.append(ev, form, cev); err != nil {
			ev.Seq, ev.PrevHash, ev.Hash, ev.FileStart = 0, "", "", false
			return err
		}
		return nil
	}
	// Masking changes only the input and the result (and says so in
	// erased and masked), so the header written is ev's.
	e := *ev
	applyMask(&e, ops, maskErr)
	if form == formDecision && !completeInput(e.Input, e.Erased) {
		form = formFull
	}
	if err := l.append(&e, form, cev); err != nil {
		return err
	}
	ev.Seq, ev.PrevHash, ev.Hash, ev.FileStart = e.Seq, e.PrevHash, e.Hash, e.FileStart
	return nil
}

// WriteOutcome appends the outcome event of dec, a decision event written
// with WriteDecision: the same decision_id, the final code (OutcomeOK or a
// v1 code), how long the action took and facts about the result (counts
// returned, an exit code; the caller keeps content out of detail). dec is
// not modified.
func (l *Log) WriteOutcome(dec *Event, code string, d time.Duration, detail map[string]any) error {
	if err := checkCode(code); err != nil {
		return err
	}
	ev := header(dec)
	l.completeOutcome(&ev, code, d, detail)
	return l.append(&ev, outcomeForm(dec), nil)
}

// outcomeForm is the form of dec's outcome line: compact when dec is in
// the log (it has a hash), whole otherwise.
func outcomeForm(dec *Event) lineForm {
	if dec.Hash != "" && dec.Context != "" {
		return formOutcome
	}
	return formFull
}

// QueueOutcome is WriteOutcome for a caller that need not wait for the
// line: the outcome is encoded now and written together with the next
// line this Log appends, by the next grouped flush (within SyncInterval),
// or by Sync or Close, whichever comes first, so that it costs no file
// lock and no write of its own. Lines keep the order of the calls. Under
// SyncAlways (or any SyncInterval below zero) it is written at once, as
// WriteOutcome. A failure to write it is returned by the append that
// tried (a decision then fails) or, from a grouped flush, by the next
// Sync or Close.
func (l *Log) QueueOutcome(dec *Event, code string, d time.Duration, detail map[string]any) error {
	if l.opts.SyncInterval < 0 { // SyncAlways, or no grouped flush to write the queue
		return l.WriteOutcome(dec, code, d, detail)
	}
	if err := checkCode(code); err != nil {
		return err
	}
	ev := header(dec)
	l.completeOutcome(&ev, code, d, detail)
	lb, err := newLineForm(&ev, outcomeForm(dec))
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		lb.free()
		return ErrClosed
	}
	l.queue = append(l.queue, lb)
	l.queued += len(lb.b)
	if len(l.queue) < maxQueuedLines && l.queued < maxQueuedBytes {
		return nil
	}
	_, err = l.writeLocked(nil)
	return err
}

// The most outcome lines, and bytes, QueueOutcome keeps before it writes
// them at once: the requests in flight, not a backlog.
const (
	maxQueuedLines = 64
	maxQueuedBytes = 256 << 10
)

// dropQueue empties the queue of outcome lines (written or not).
func (l *Log) dropQueue() {
	for _, lb := range l.queue {
		lb.free()
	}
	clear(l.queue)
	l.queue, l.queued = l.queue[:0], 0
}

// writeQueued writes the queued outcome lines, if any, of an open Log;
// l.mu is held.
func (l *Log) writeQueued() error {
	if len(l.queue) == 0 {
		return nil
	}
	_, err := l.writeLocked(nil)
	return err
}

// completeOutcome completes ev, a decision's header, as its outcome event,
// timestamped now.
func (l *Log) completeOutcome(ev *Event, code string, d time.Duration, detail map[string]any) {
	ev.Phase, ev.Outcome, ev.DurationNS, ev.Detail = PhaseOutcome, code, d.Nanoseconds(), detail
	ev.Timestamp = time.Time{}
	l.stamp(ev)
}

// Head returns the hash of the last event this Log appended, or "" if none.
// Kept elsewhere, it lets Verify notice lines cut from the end of the log.
func (l *Log) Head() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.head
}

// Sync flushes appended lines to stable storage and returns the first error
// a grouped flush met since the last call.
func (l *Log) Sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	errQueue := l.writeQueued()
	l.dropLease() // nobody waits for the lock through the fsync
	err := errors.Join(l.syncErr, errQueue, l.syncHeld())
	l.syncErr, l.dirty = nil, false
	return err
}

// Close flushes and closes the log, then writes a checkpoint of the
// last line this Log wrote when Options.CheckpointKey is set.
func (l *Log) Close() error {
	if l.stop != nil {
		l.stopOnce.Do(func() { close(l.stop) })
		<-l.done
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	errQueue := l.writeQueued()
	l.closed = true
	if l.leaseEnd != nil {
		l.leaseEnd.Stop()
	}
	l.dropLease() // before the fsync, and explicitly (Windows releases a closed handle's lock late)
	err := errors.Join(l.syncErr, errQueue, l.syncHeld(), l.closeHeld())
	if l.opts.CheckpointKey != "" && l.head != "" {
		err = errors.Join(err, writeCheckpoint(l.path, l.opts.CheckpointKey, l.headSeq, l.head, l.opts.Now()), l.signHead())
	}
	return errors.Join(err, l.lock.Close())
}

// signHead appends a signed head of the log (heads.go) under the file
// lock, so that no line is appended or rotated while its tree is read.
func (l *Log) signHead() error {
	if err := lockFile(l.lock); err != nil {
		return fmt.Errorf("decisionlog: lock: %w", err)
	}
	defer unlockFile(l.lock)
	return writeHead(l.path, l.opts.CheckpointKey)
}

// checkpointIfDue writes a checkpoint and a signed head of the lines this
// open Log appended when CheckpointInterval has elapsed since the last
// and it appended since. It runs from the grouped flush, off the append
// path; appends wait for it only while it holds l.mu, once an interval.
func (l *Log) checkpointIfDue() error {
	if l.opts.CheckpointKey == "" || l.opts.CheckpointInterval < 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed || l.head == "" || l.head == l.signed || time.Now().Before(l.signAt) {
		return nil
	}
	l.signAt = time.Now().Add(l.opts.CheckpointInterval)
	l.dropLease() // signHead takes the file lock itself
	err := errors.Join(writeCheckpoint(l.path, l.opts.CheckpointKey, l.headSeq, l.head, l.opts.Now()), l.signHead())
	if err == nil {
		l.signed = l.head
	}
	return err
}

func (l *Log) stamp(ev *Event) {
	if ev.Timestamp.IsZero() {
		ev.Timestamp = l.opts.Now().UTC()
	}
	if ev.Labels == (Labels{}) {
		ev.Labels = l.opts.Labels
	}
}

// header is the part of a decision event its outcome event repeats.
func header(ev *Event) Event {
	return Event{
		Labels: ev.Labels, DecisionID: ev.DecisionID, Bundles: ev.Bundles, Path: ev.Path,
		RequestID: ev.RequestID, Action: ev.Action, Origin: ev.Origin,
		PolicyHash: ev.PolicyHash, ConfigHash: ev.ConfigHash,
	}
}

func checkCode(code string) error {
	if code == OutcomeOK || code == OutcomeCancelled || protocol.Code(code).Valid() {
		return nil
	}
	return fmt.Errorf("decisionlog: outcome %q is neither OK, CANCELLED nor a v1 code", code)
}

// newID returns a random UUID (version 4) for a decision.
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:], b[10:16])
	return string(s[:])
}
