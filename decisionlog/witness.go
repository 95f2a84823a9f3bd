package decisionlog

import (
	"errors"
	"fmt"

	"golang.org/x/mod/sumdb/tlog"
)

// A witness (the fleet collector, an auditor's service) holds the last
// signed head of a log it was sent and accepts a new one only with a
// consistency proof (RFC 6962) from the head it holds: a log rolled back,
// or rewritten below a witnessed head, can no longer produce one.

// SignedHeadNotes returns the signed notes of the log's FILE.heads, in
// the order written, unverified.
func SignedHeadNotes(path string) ([]string, error) {
	recs, err := readHeadRecords(path)
	if err != nil {
		return nil, err
	}
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Note)
	}
	return out, nil
}

// OpenHead verifies the signed head msg with keys and reads it.
func OpenHead(msg []byte, keys PublicKeys) (Head, error) {
	return openHead(msg, keys.Verifiers)
}

// ProveHeadConsistency returns the consistency proof (base64 hashes) from
// the tree of size oldSize to that of size newSize, from the log at path
// whose heads verify with keys: what a witness holding the head of size
// oldSize needs to accept the head of size newSize.
func ProveHeadConsistency(path string, keys PublicKeys, oldSize, newSize int64) ([]string, error) {
	rep, err := VerifyHeads(path, keys)
	if err != nil {
		return nil, err
	}
	t := rep.tree
	if t == nil || newSize > t.size || oldSize < t.base || oldSize > newSize {
		return nil, fmt.Errorf("no consistency proof from size %d to %d in this log", oldSize, newSize)
	}
	p, err := tlog.ProveTree(newSize, oldSize, t.store)
	if err != nil {
		return nil, err
	}
	return encodeHashes(p), nil
}

// ErrNotConsistent is returned by CheckHeadExtends for a head that does
// not extend the one the witness holds.
var ErrNotConsistent = errors.New("the head is not consistent with the last head held")

// CheckHeadExtends is a witness's check: the new signed head must verify
// with keys and, when the witness holds an earlier head (old, else nil),
// be at least as large and carry a consistency proof from it.
func CheckHeadExtends(old, next []byte, proof []string, keys PublicKeys) (Head, error) {
	h, err := openHead(next, keys.Verifiers)
	if err != nil {
		return Head{}, fmt.Errorf("the head does not verify: %w", err)
	}
	if old == nil {
		return h, nil
	}
	o, err := openHead(old, keys.Verifiers)
	if err != nil {
		return Head{}, fmt.Errorf("the head held does not verify: %w", err)
	}
	if h.Size < o.Size {
		return Head{}, fmt.Errorf("%w: size %d is below the %d held: the log was cut or rolled back", ErrNotConsistent, h.Size, o.Size)
	}
	p, err := decodeHashes(proof)
	if err == nil {
		err = tlog.CheckTree(p, h.Size, h.Root, o.Size, o.Root)
	}
	if err != nil {
		return Head{}, fmt.Errorf("%w: size %d root %s does not extend size %d root %s: %v", ErrNotConsistent, h.Size, h.RootBase64(), o.Size, o.RootBase64(), err)
	}
	return h, nil
}
