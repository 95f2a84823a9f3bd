package decisionlog

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"
)

// lineBuf builds one line in two steps: the head of the body (everything
// but the chain members) before the log's lock is taken, then, under the
// lock, the chain members and the hash. Byte 0 is a spare '\n' that ends a
// line torn by a crash, so that either way the line goes out in one write.
type lineBuf struct {
	b    []byte
	head int // len(b) after the head
	// ctx is the id of the context line a compact decision names, which
	// must precede it in the same file; "" for any other line.
	ctx   string
	ctxEv *Event // the context line's event (its id is ctx)
	form  lineForm
}

// maxPooledLine bounds the buffers kept for reuse, so that one huge event
// does not pin its memory.
const maxPooledLine = 64 << 10

var linePool = sync.Pool{New: func() any { return &lineBuf{b: make([]byte, 0, 2048)} }}

// newLine encodes the head of ev, in full, into a pooled buffer; free
// returns it.
func newLine(ev *Event) (*lineBuf, error) { return newLineForm(ev, formFull) }

// newLineForm encodes the head of ev in form f into a pooled buffer.
func newLineForm(ev *Event, f lineForm) (*lineBuf, error) {
	lb := linePool.Get().(*lineBuf)
	b, err := appendHeadForm(append(lb.b[:0], '\n'), ev, f)
	if err != nil {
		lb.free()
		return nil, err
	}
	lb.b, lb.head, lb.ctx, lb.ctxEv, lb.form = b, len(b), "", nil, f
	if f == formDecision {
		lb.ctx = ev.Context
	}
	return lb, nil
}

// finish completes the line with its chain members and hash, replacing
// those of an earlier finish, and returns the hash.
func (lb *lineBuf) finish(seq uint64, fileStart bool, prevHash string) string {
	b := appendChain(lb.b[:lb.head], seq, fileStart, prevHash)
	sum := sha256.Sum256(b[1:])
	b = append(b[:len(b)-1], hashPrefix...)
	n := len(b)
	b = append(b, make([]byte, hashLen)...)
	hex.Encode(b[n:], sum[:])
	b = append(b, hashSuffix...)
	lb.b = append(b, '\n')
	return string(b[n : n+hashLen])
}

// line is the finished line; torn prefixes the '\n' that ends a partial
// line left at the end of the file.
func (lb *lineBuf) line(torn bool) []byte {
	if torn {
		return lb.b
	}
	return lb.b[1:]
}

func (lb *lineBuf) free() {
	lb.ctxEv = nil
	if cap(lb.b) <= maxPooledLine {
		linePool.Put(lb)
	}
}
