package decisionlog

import (
	"crypto/rand"
	"encoding/hex"
	"maps"
)

// contextFor returns the context line that states ev's labels,
// bundles and hashes, making a new context when they differ from the
// current one's. The context line itself is written, under the file
// lock, before the first decision that names it in each file
// (linkWithContext).
func (l *Log) contextFor(ev *Event) *Event {
	l.ctxMu.Lock()
	defer l.ctxMu.Unlock()
	if c := l.ctx; c != nil && c.Labels == ev.Labels && c.PolicyHash == ev.PolicyHash &&
		c.ConfigHash == ev.ConfigHash && maps.Equal(c.Bundles, ev.Bundles) {
		return c
	}
	l.ctx = &Event{Context: newContextID(), Labels: ev.Labels, Bundles: maps.Clone(ev.Bundles),
		Phase: PhaseContext, PolicyHash: ev.PolicyHash, ConfigHash: ev.ConfigHash}
	return l.ctx
}

// newContextID is a random id of 12 hex digits (48 bits): it tells apart
// the writers (processes, and contexts within one) of one log.
func newContextID() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
