package decisionlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
)

// maxTailScan bounds how far back from the end of a file the writer looks
// for the last event to chain from.
const maxTailScan = 16 << 20

// tailState is where the chain ends: the last event's hash and seq, and the
// size of the active file after it. valid is false until it is known.
type tailState struct {
	valid bool
	torn  bool // the file ends in a partial line, which the next line ends
	size  int64
	hash  string
	seq   uint64
}

// append writes ev as the next line of the chain, after the outcome lines
// queued before it, in one write. The line is encoded before the locks are
// taken; under them only the chain members and the hash are added to it.
func (l *Log) append(ev *Event, f lineForm, cev *Event) error {
	lb, err := newLineForm(ev, f)
	if err != nil {
		return err
	}
	defer lb.free()
	if f == formDecision {
		lb.ctxEv = cev
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	ln, err := l.writeLocked(lb)
	ev.Seq, ev.PrevHash, ev.FileStart, ev.Hash = ln.seq, ln.prevHash, ln.fileStart, ln.hash
	return err
}

// writeLocked takes the file lock, links the queued lines and then lb
// (when not nil), writes them out and returns lb's link. l.mu is held.
// The queue is emptied either way; a failure leaves the tail to be read
// again and returns no link.
func (l *Log) writeLocked(lb *lineBuf) (ln link, err error) {
	defer l.dropQueue()
	leased := l.leased // the lock is held already, and nobody else wrote since
	if !leased {
		if err := l.takeLock(); err != nil {
			return link{}, fmt.Errorf("decisionlog: lock: %w", err)
		}
	}
	defer func() {
		if err != nil {
			ln, l.tail.valid, l.out = link{}, false, l.out[:0]
			l.leased, l.ctxIn, l.noteOut = false, "", false
			unlockFile(l.lock)
		} else if !leased {
			l.leaseOrUnlock()
		}
	}()
	if !leased {
		if err := l.catchUp(); err != nil {
			return link{}, err
		}
	}
	if l.cut != nil {
		if err := l.linkNote(); err != nil {
			return link{}, err
		}
	}
	for _, q := range l.queue {
		if _, err := l.link(q, false); err != nil {
			return link{}, err
		}
	}
	switch {
	case lb == nil:
	case lb.ctxEv != nil && l.ctxIn != lb.ctx:
		if ln, err = l.linkWithContext(lb); err != nil {
			return link{}, err
		}
	default:
		if ln, err = l.link(lb, false); err != nil {
			return link{}, err
		}
	}
	if err := l.writeOut(); err != nil {
		return link{}, err
	}
	return ln, l.flush()
}

// catchUp follows a rotation and reads the tail another process may have
// left since this Log last held the lock; while it holds it, nobody can
// rotate or append.
func (l *Log) catchUp() error {
	size, err := l.followRotation()
	if err != nil {
		return err
	}
	return l.readTail(size)
}

// LockLease is how long a Log keeps the file lock after taking it for
// an append, while it has no company. Appends within the lease neither
// take the lock again nor look for rotation by other processes (nobody
// else can append or rotate while it is held): three system calls fewer
// per line. The lease is not renewed while held. A Log that finds the
// lock taken by another (another process, another Log on the file)
// keeps no lease for Contention afterwards, unlocking after each append
// as without leases, so that writers that share the file take turns
// line by line; another writer so waits for one lease at most, once.
const LockLease = time.Millisecond

// Contention is how long a Log keeps no lease after finding the lock
// taken by another writer.
const Contention = time.Second

// takeLock takes the file lock, waiting for it if another writer holds
// it, and then keeps no lease for Contention. l.mu is held.
func (l *Log) takeLock() error {
	got, err := tryLockFile(l.lock)
	if err != nil || got {
		return err
	}
	l.contended = time.Now().Add(Contention)
	return lockFile(l.lock)
}

// leaseOrUnlock keeps the file lock, which l holds, on a lease, unless
// another writer was seen within Contention; then it unlocks. l.mu is
// held.
func (l *Log) leaseOrUnlock() {
	if time.Now().Before(l.contended) {
		unlockFile(l.lock)
		return
	}
	l.lease()
}

// lease keeps the file lock, which l holds, for LockLease; the release
// runs on a timer. l.mu is held.
func (l *Log) lease() {
	l.leased = true
	if l.leaseEnd == nil {
		l.leaseEnd = time.AfterFunc(LockLease, l.endLease)
		return
	}
	l.leaseEnd.Reset(LockLease)
}

// endLease releases the file lock kept by lease, unless Close, Sync or a
// failed append released it first.
func (l *Log) endLease() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dropLease()
}

// dropLease releases the file lock if a lease keeps it. l.mu is held.
func (l *Log) dropLease() {
	if l.leased {
		l.leased = false
		unlockFile(l.lock)
	}
}

// link is where one line joins the chain: its chain members and hash.
type link struct {
	seq       uint64
	prevHash  string
	hash      string
	fileStart bool
}

// maxChainLen bounds what finish adds to a line's head: the chain
// members and the hash.
const maxChainLen = len(`"seq":18446744073709551615,"file_start":true,"prev_hash":""}`) + hashLen + trailerLen + 1

// linkWithContext links the context line lb names and then lb, both in
// the same file: the file is rotated first when the two would not fit.
func (l *Log) linkWithContext(lb *lineBuf) (link, error) {
	cev := *lb.ctxEv
	cev.Timestamp = l.opts.Now().UTC()
	cb, err := newLineForm(&cev, formContext)
	if err != nil {
		return link{}, err
	}
	defer cb.free()
	need := int64(len(cb.b) + len(lb.b) + 2*maxChainLen)
	if l.opts.MaxBytes > 0 && l.tail.size > 0 && l.tail.size+need > l.opts.MaxBytes {
		if err := l.writeOut(); err != nil {
			return link{}, err
		}
		if err := l.rotate(); err != nil {
			return link{}, err
		}
		l.tail.torn = false
	}
	if _, err := l.link(cb, false); err != nil {
		return link{}, err
	}
	ln, err := l.link(lb, true)
	if err == nil {
		l.ctxIn = lb.ctx
	}
	return ln, err
}

// link chains lb to the tail, which readTail has made known, and adds it
// to the lines to write, rotating first if it would not fit (unless
// stay: lb goes into the file of the line before it). A file this Log
// starts begins with its context line, so that every decision in it
// can be read whole after older files are deleted (linkFileContext).
func (l *Log) link(lb *lineBuf, stay bool) (link, error) {
	ln := link{seq: l.tail.seq + 1, prevHash: l.tail.hash, fileStart: l.tail.size == 0}
	ln.hash = lb.finish(ln.seq, ln.fileStart, ln.prevHash)
	if !stay && l.opts.MaxBytes > 0 && l.tail.size > 0 && l.tail.size+int64(len(lb.line(false))) > l.opts.MaxBytes {
		if err := l.writeOut(); err != nil { // the lines before belong to the file rotated
			return link{}, err
		}
		if err := l.rotate(); err != nil {
			return link{}, err
		}
		l.tail.torn = false
	}
	if l.tail.size == 0 && lb.form != formContext {
		if err := l.linkFileContext(lb); err != nil {
			return link{}, err
		}
	}
	if next := (link{seq: l.tail.seq + 1, prevHash: l.tail.hash, fileStart: l.tail.size == 0}); next.seq != ln.seq || next.fileStart != ln.fileStart {
		ln = next
		ln.hash = lb.finish(ln.seq, ln.fileStart, ln.prevHash)
	}
	// A line cut short by a crash is ended first, so that ours stands alone.
	line := lb.line(l.tail.torn)
	l.out = append(l.out, line...)
	l.tail = tailState{valid: true, size: l.tail.size + int64(len(line)), hash: ln.hash, seq: ln.seq}
	return ln, nil
}

// linkFileContext links, as the first line of the file, the context line
// of lb (a decision's own, else this Log's current one), if it has one.
func (l *Log) linkFileContext(lb *lineBuf) error {
	cev := lb.ctxEv
	if cev == nil {
		l.ctxMu.Lock()
		cev = l.ctx
		l.ctxMu.Unlock()
	}
	if cev == nil {
		return nil // whole lines only (no decision written yet, or fullLines)
	}
	c := *cev
	c.Timestamp = l.opts.Now().UTC()
	cb, err := newLineForm(&c, formContext)
	if err != nil {
		return err
	}
	defer cb.free()
	if _, err := l.link(cb, true); err != nil {
		return err
	}
	l.ctxIn = c.Context
	return nil
}

// writeOut writes the linked lines not yet in the file; once they are
// written, the last of them, the tail, is the head (Head).
func (l *Log) writeOut() error {
	if len(l.out) == 0 {
		return nil
	}
	start := l.tail.size - int64(len(l.out)) // the out lines are the file's last bytes
	n, err := l.f.Write(l.out)
	lines := bytes.Count(l.out, []byte{'\n'})
	if cap(l.out) > maxPooledLine {
		l.out = nil
	} else {
		l.out = l.out[:0]
	}
	if err != nil {
		l.cutShortWrite(start, n, lines, err)
		return fmt.Errorf("decisionlog: write: %w", err)
	}
	l.head, l.headSeq = l.tail.hash, l.tail.seq
	if l.noteOut {
		l.cut, l.noteOut = nil, false
	}
	return nil
}

// readTail makes l.tail describe the end of the chain, the active file
// being size bytes long, and whether it ends in a partial line. The
// cached tail stands while the size is the one it was taken at.
func (l *Log) readTail(size int64) error {
	if l.tail.valid && l.tail.size == size {
		return nil
	}
	rec, found, torn, err := lastRecord(l.f, size)
	if err != nil {
		return err
	}
	if !found {
		if rec, err = l.previousTail(); err != nil {
			return err
		}
	}
	l.tail = tailState{valid: true, size: size, hash: rec.stored, seq: rec.ev.Seq, torn: torn}
	return nil
}

// previousTail is the last event of FILE.1 (or FILE.1.gz), or the
// genesis when there is none.
func (l *Log) previousTail() (record, error) {
	genesis := record{stored: Genesis}
	name, ok := existingRotated(l.path, 1)
	if !ok {
		return genesis, nil
	}
	rec, found, err := lastRecordOf(name)
	if errors.Is(err, fs.ErrNotExist) {
		return genesis, nil
	}
	if err != nil || !found {
		return genesis, err
	}
	return rec, nil
}

// lastRecord finds the last parseable complete line in the first size
// bytes of r, and whether those bytes end in a partial line.
func lastRecord(r io.ReaderAt, size int64) (rec record, found, torn bool, err error) {
	const chunk = 64 << 10
	var buf []byte
	for off := size; off > 0 && len(buf) < maxTailScan; {
		n := min(chunk, off)
		off -= n
		b := make([]byte, int(n)+len(buf))
		if _, err := r.ReadAt(b[:n], off); err != nil {
			return record{}, false, false, fmt.Errorf("decisionlog: read tail: %w", err)
		}
		copy(b[n:], buf)
		buf = b
		torn = buf[len(buf)-1] != '\n'
		if rec, ok := lastComplete(buf, off == 0); ok {
			return rec, true, torn, nil
		}
	}
	return record{}, false, torn, nil
}

// lastComplete parses the complete lines of buf from the last one back and
// returns the first that parses. The first line of buf counts as complete
// only when buf starts at the beginning of the file.
func lastComplete(buf []byte, atStart bool) (record, bool) {
	end := bytes.LastIndexByte(buf, '\n')
	for end >= 0 {
		start := bytes.LastIndexByte(buf[:end], '\n') + 1
		if start == 0 && !atStart {
			return record{}, false
		}
		if rec, err := parseLine(buf[start:end]); err == nil {
			return rec, true
		}
		end = start - 1
	}
	return record{}, false
}

// followRotation reopens the path when another process rotated the file
// this Log holds open, and returns the size of the file it then holds.
// The held file's identity is kept from when it was opened, so one stat of
// the path tells both whether it is still the held file and its size.
func (l *Log) followRotation() (int64, error) {
	id, size, err := l.name.stat()
	if err == nil && !l.reopen && sameFile(l.held, id) {
		return size, nil
	}
	l.f.Close()
	l.tail.valid = false
	f, err := openAppend(l.path)
	if err != nil {
		return 0, err
	}
	return l.hold(f)
}

// hold makes f the active file, records its identity and returns its size.
func (l *Log) hold(f *os.File) (int64, error) {
	id, size, err := statFile(f)
	if err != nil {
		f.Close()
		return 0, err
	}
	l.f, l.held, l.ctxIn, l.reopen = f, id, "", false
	return size, nil
}

// rotate shifts FILE.n to FILE.n+1 (dropping FILE.Keep), FILE to FILE.1,
// and opens a new FILE. The chain continues: l.tail is left as it was.
// When a step fails (a folder made read-only), the append fails, and the
// next one opens FILE again (reopen) and tries the rotation again: the
// closed file is never used.
func (l *Log) rotate() error {
	errSync := l.f.Sync()
	l.f.Close()
	l.dirty, l.reopen = false, true
	if err := removeRotated(l.path, l.opts.Keep); err != nil {
		return err
	}
	for i := l.opts.Keep - 1; i >= 1; i-- {
		if err := renameRotated(l.path, i, i+1); err != nil {
			return err
		}
	}
	if err := os.Rename(l.path, rotatedName(l.path, 1)); err != nil {
		return err
	}
	if !l.opts.NoCompress {
		// FILE.1 stays whole and plain if this fails: the log goes on,
		// and the next Sync or Close reports it.
		if err := compressRotated(l.path); err != nil {
			l.syncErr = errors.Join(l.syncErr, err)
		}
	}
	f, err := openAppend(l.path)
	if err != nil {
		return err
	}
	if _, err := l.hold(f); err != nil {
		return err
	}
	l.tail.size = 0
	return errSync
}

func rotatedName(path string, n int) string { return fmt.Sprintf("%s.%d", path, n) }

func removeIfExists(name string) error {
	if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func renameIfExists(from, to string) error {
	if err := os.Rename(from, to); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// syncHeld fsyncs the file held, unless a failed rotation closed it.
func (l *Log) syncHeld() error {
	if l.reopen {
		return nil
	}
	return l.f.Sync()
}

// closeHeld closes the file held, unless a failed rotation closed it.
func (l *Log) closeHeld() error {
	if l.reopen {
		return nil
	}
	return l.f.Close()
}

// flush fsyncs now under SyncAlways, or marks the file for the next
// grouped flush.
func (l *Log) flush() error {
	if l.opts.SyncInterval == SyncAlways {
		return l.f.Sync()
	}
	l.dirty = true
	return nil
}

// syncLoop flushes the file every SyncInterval while there is something to
// flush. The fsync runs outside the mutex so that appends do not wait for it.
func (l *Log) syncLoop() {
	defer close(l.done)
	t := time.NewTicker(l.opts.SyncInterval)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.groupSync()
			if err := l.checkpointIfDue(); err != nil {
				l.mu.Lock()
				l.syncErr = errors.Join(l.syncErr, err)
				l.mu.Unlock()
			}
		}
	}
}

func (l *Log) groupSync() {
	l.mu.Lock()
	if err := l.writeQueued(); err != nil {
		l.syncErr = errors.Join(l.syncErr, err)
	}
	f, dirty := l.f, l.dirty
	l.dirty = false
	l.mu.Unlock()
	if !dirty {
		return
	}
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrClosed) {
		l.mu.Lock()
		l.syncErr = errors.Join(l.syncErr, err)
		l.mu.Unlock()
	}
}
