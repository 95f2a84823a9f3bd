package netguard

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"io"
	"sync"
)

// copyChunk is the size of one read from the body; copyBuffers chunks are
// in flight between the reader and the hasher at most.
const (
	copyChunk   = 128 << 10
	copyBuffers = 4
)

// chunks recycles copy buffers between downloads.
var chunks = sync.Pool{New: func() any { return new([copyChunk]byte) }}

// hasher computes SHA-256 on its own goroutine over the chunks given to
// it, in order, so that hashing a download overlaps reading the body,
// writing the file and the fsync that follows instead of adding to them.
// Every chunk it was given returns to the pool once hashed.
type hasher struct {
	h    hash.Hash
	work chan chunk
	free chan *[copyChunk]byte
	done chan struct{}
	once sync.Once
}

// chunk is the first n bytes of a buffer.
type chunk struct {
	b *[copyChunk]byte
	n int
}

// newHasher starts a hasher with copyBuffers buffers to hand out.
func newHasher() *hasher {
	p := &hasher{
		h:    sha256.New(),
		work: make(chan chunk, copyBuffers),
		free: make(chan *[copyChunk]byte, copyBuffers),
		done: make(chan struct{}),
	}
	for range copyBuffers {
		p.free <- chunks.Get().(*[copyChunk]byte)
	}
	go p.run()
	return p
}

func (p *hasher) run() {
	defer close(p.done)
	for c := range p.work {
		p.h.Write(c.b[:c.n])
		p.free <- c.b
	}
}

// buffer waits for a free buffer.
func (p *hasher) buffer() *[copyChunk]byte { return <-p.free }

// add hands the first n bytes of b to the hasher; b must not be touched
// until buffer returns it again.
func (p *hasher) add(b *[copyChunk]byte, n int) { p.work <- chunk{b, n} }

// giveBack returns an unused buffer.
func (p *hasher) giveBack(b *[copyChunk]byte) { p.free <- b }

// stop waits until every chunk given is hashed and returns the buffers
// to the pool. It is safe to call more than once.
func (p *hasher) stop() {
	p.once.Do(func() {
		close(p.work)
		<-p.done
		for range copyBuffers {
			chunks.Put(<-p.free)
		}
	})
}

// sum stops the hasher and returns the lower-case hex digest of every
// chunk given.
func (p *hasher) sum() string {
	p.stop()
	return hex.EncodeToString(p.h.Sum(nil))
}

// copyHashed writes body to w, hashing every byte written with p, and
// returns how many bytes it wrote. It
// stops at the first read or write error; io.EOF ends it without error.
func copyHashed(w io.Writer, body io.Reader, p *hasher) (int64, error) {
	var total int64
	for {
		b := p.buffer()
		n, rerr := body.Read(b[:])
		if n > 0 {
			if _, werr := w.Write(b[:n]); werr != nil {
				p.giveBack(b)
				return total, werr
			}
			p.add(b, n)
			total += int64(n)
		} else {
			p.giveBack(b)
		}
		if errors.Is(rerr, io.EOF) {
			return total, nil
		}
		if rerr != nil {
			return total, rerr
		}
	}
}
