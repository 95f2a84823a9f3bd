package decisionlog

import (
	"errors"
	"fmt"
	"syscall"
)

// writeCut is what the writer knows of appends whose write failed (a full
// disk): the piece of a line a short write left was cut off (the file
// truncated to the size it had before the write), so that the file never
// ends in a torn line that reads as tampering, and the next line the
// writer appends is preceded by a note (PhaseNote) saying so.
type writeCut struct {
	failures  int    // writes that failed since the last note
	bytesCut  int64  // bytes of lines cut off after short writes
	linesLost int    // lines not in the log (their requests were refused or their outcome lost)
	lastErr   string // the last write error
	cutErr    string // why a piece could not be cut off, if it could not
}

// cutShortWrite handles a write of lines that failed after n of their
// bytes, the file having been start bytes long: it truncates the file
// back to start and records the failure for the note. l.mu and the file
// lock are held.
func (l *Log) cutShortWrite(start int64, n, lines int, err error) {
	if l.noteOut { // the note itself was among the lines lost
		lines--
		l.noteOut = false
	}
	if l.cut == nil {
		l.cut = &writeCut{}
	}
	c := l.cut
	c.failures++
	c.linesLost += lines
	c.lastErr = writeErrText(err)
	if n <= 0 {
		return
	}
	if terr := l.f.Truncate(start); terr != nil {
		c.cutErr = terr.Error()
		return
	}
	c.bytesCut += int64(n)
}

// writeErrText names a write error without the file's path.
func writeErrText(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}

// linkNote links the note of l.cut, first of the lines to write.
func (l *Log) linkNote() error {
	c := l.cut
	detail := map[string]any{
		"event":      "write_failed",
		"failures":   c.failures,
		"bytes_cut":  c.bytesCut,
		"lines_lost": c.linesLost,
		"error":      c.lastErr,
	}
	if c.cutErr != "" {
		detail["cut_error"] = c.cutErr
	}
	ev := Event{Labels: l.opts.Labels, Timestamp: l.opts.Now().UTC(), Phase: PhaseNote, Detail: detail}
	lb, err := newLineForm(&ev, formNote)
	if err != nil {
		return fmt.Errorf("decisionlog: note: %w", err)
	}
	defer lb.free()
	if _, err := l.link(lb, false); err != nil {
		return err
	}
	l.noteOut = true
	return nil
}
