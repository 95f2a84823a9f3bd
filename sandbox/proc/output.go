package proc

import (
	"bytes"
	"strings"
)

// Capped is a writer for a child's output that keeps the first max bytes
// written to it and drops the rest, so a chatty program cannot grow the
// host's memory.
type Capped struct {
	buf bytes.Buffer
	max int
}

// NewCapped returns a Capped keeping at most max bytes.
func NewCapped(max int) *Capped { return &Capped{max: max} }

// Write keeps what fits and reports all of p written.
func (c *Capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// Bytes is what was kept.
func (c *Capped) Bytes() []byte { return c.buf.Bytes() }

// Len is how many bytes were kept.
func (c *Capped) Len() int { return c.buf.Len() }

// String is what was kept, as a string.
func (c *Capped) String() string { return c.buf.String() }

// FirstLine is the first line of s that is not blank, trimmed and cut to
// 200 bytes: what a launcher's failure says to a person.
func FirstLine(s string) string {
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			if len(line) > 200 {
				line = strings.ToValidUTF8(line[:200], "")
			}
			return line
		}
	}
	return ""
}
