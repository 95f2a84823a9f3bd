package decisionlog

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// HeadReport is what VerifyHeads found.
type HeadReport struct {
	// KeyID is the key hash (8 hex digits) of the public key checked
	// with; of several, separated by commas.
	KeyID string `json:"key_id"`
	// Heads counts the signed heads that verified and match the log;
	// Latest is the largest.
	Heads  int  `json:"heads"`
	Latest Head `json:"latest"`
	// Issues are what a rewrite, a cut or a forgery left; Notes what
	// could not be checked.
	Issues []string `json:"issues,omitempty"`
	Notes  []string `json:"notes,omitempty"`

	tree *merkleTree
}

// OK reports whether the signed heads found nothing wrong.
func (r *HeadReport) OK() bool { return len(r.Issues) == 0 }

// PublicKeys are the public keys of signed heads checked with, and
// their key ids.
type PublicKeys struct {
	Verifiers note.Verifiers
	IDs       []string
}

// LoadPublicKey reads note verifier keys, one a line (decision-log.pub
// holds one; FILE.pub beside a log that several configurations share
// holds each of theirs).
func LoadPublicKey(name string) (PublicKeys, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return PublicKeys{}, err
	}
	var vs []note.Verifier
	var ids []string
	for line := range strings.Lines(string(b)) {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		v, err := note.NewVerifier(line)
		if err != nil {
			return PublicKeys{}, fmt.Errorf("%s: not a public key of signed heads: %w", name, err)
		}
		vs, ids = append(vs, v), append(ids, keyID(v.KeyHash()))
	}
	if len(vs) == 0 {
		return PublicKeys{}, fmt.Errorf("%s: no public key in it", name)
	}
	return PublicKeys{Verifiers: note.VerifierList(vs...), IDs: ids}, nil
}

// keyID is the key hash of v as 8 hex digits, as signature lines carry it.
func keyID(hash uint32) string { return fmt.Sprintf("%08x", hash) }

// openHead verifies a signed note with v and reads the head it states.
func openHead(msg []byte, v note.Verifiers) (Head, error) {
	n, err := note.Open(msg, v)
	if err != nil {
		return Head{}, err
	}
	size, root, err := parseHeadText(n.Text)
	if err != nil {
		return Head{}, err
	}
	return Head{Size: size, Root: root, KeyID: keyID(n.Sigs[0].Hash), Note: string(msg)}, nil
}

// headError describes why a signed head did not open.
func headError(where string, err error, rep *HeadReport) {
	var unknown *note.UnverifiedNoteError
	var invalid *note.InvalidSignatureError
	switch {
	case errors.As(err, &unknown):
		var ids []string
		for _, s := range unknown.Note.UnverifiedSigs {
			ids = append(ids, keyID(s.Hash))
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("%s: not checked (key id %s, signed with another key)", where, strings.Join(ids, ",")))
	case errors.As(err, &invalid):
		rep.Issues = append(rep.Issues, fmt.Sprintf("inserted: %s: a signed head whose signature does not verify with key id %s (forged)", where, rep.KeyID))
	default:
		rep.Issues = append(rep.Issues, fmt.Sprintf("malformed: %s: %v", where, err))
	}
}

// VerifyHeads checks the signed heads of the log at path (FILE.heads)
// with the public key v: each must carry a valid signature, and the log's
// Merkle tree at each head's size must have the root the head signed.
func VerifyHeads(path string, keys PublicKeys) (HeadReport, error) {
	rep := HeadReport{KeyID: strings.Join(keys.IDs, ",")}
	v := keys.Verifiers
	recs, err := readHeadRecords(path)
	if err != nil {
		return rep, err
	}
	if len(recs) == 0 {
		rep.Issues = append(rep.Issues, "removed: there are no signed heads ("+filepath.Base(HeadsPath(path))+")")
		return rep, nil
	}
	var heads []Head
	var frontiers [][]string
	for i, r := range recs {
		h, err := openHead([]byte(r.Note), v)
		if err != nil {
			headError(fmt.Sprintf("%s:%d", filepath.Base(HeadsPath(path)), i+1), err, &rep)
			continue
		}
		heads, frontiers = append(heads, h), append(frontiers, r.Frontier)
	}
	t, err := treeOfLog(path, heads, frontiers, &rep)
	if err != nil {
		return rep, err
	}
	rep.tree = t
	for _, h := range heads {
		switch {
		case h.Size < t.base:
			rep.Notes = append(rep.Notes, fmt.Sprintf("the signed head of size %d covers lines in files deleted by rotation; not checked", h.Size))
		case h.Size > t.size:
			rep.Issues = append(rep.Issues, fmt.Sprintf("removed: the log ends at seq %d, but a head of size %d was signed: its tail was cut", t.size, h.Size))
		default:
			root, err := t.root(h.Size)
			if err != nil {
				return rep, err
			}
			if root != h.Root {
				rep.Issues = append(rep.Issues, fmt.Sprintf("changed: the log's tree at size %d has root %s, not the signed %s: the log was rewritten",
					h.Size, base64.StdEncoding.EncodeToString(root[:]), h.RootBase64()))
				continue
			}
			if rep.Heads++; h.Size >= rep.Latest.Size {
				rep.Latest = h
			}
		}
	}
	return rep, nil
}

// treeOfLog builds the log's tree: from genesis when the log starts at
// seq 1, else from the frontier of the smallest verified head the
// remaining lines continue, checked against its signed root.
func treeOfLog(path string, heads []Head, frontiers [][]string, rep *HeadReport) (*merkleTree, error) {
	files, _, err := Files(path)
	if err != nil {
		return nil, err
	}
	t := newMerkleTree()
	first := int64(1)
	if len(files) > 0 {
		if first, err = firstSeq(files[0]); err != nil {
			return nil, err
		}
	}
	if first > 1 {
		var best *merkleTree
		for i, h := range heads {
			if h.Size < first-1 || (best != nil && h.Size >= best.base) {
				continue
			}
			fr, err := decodeHashes(frontiers[i])
			s := newMerkleTree()
			if err != nil || s.seed(h.Size, fr) != nil {
				continue
			}
			if root, err := s.root(h.Size); err == nil && root == h.Root {
				best = s
			}
		}
		if best == nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the log starts at seq %d (older files deleted by rotation) and no signed head holds the tree before it: the heads were not checked", first))
			t.base, t.size = first-1, first-1
			return t, nil
		}
		t = best
	}
	if err := growTree(path, t, false); err != nil {
		rep.Notes = append(rep.Notes, err.Error())
	}
	return t, nil
}

// CheckHeadConsistent checks that the log extends an earlier signed head
// msg (an auditor's copy): its signature must verify with v, and the
// consistency proof (RFC 6962) from it to the log's latest tree must
// hold. The findings go into rep, which VerifyHeads made.
func (r *HeadReport) CheckHeadConsistent(msg []byte, keys PublicKeys) {
	old, err := openHead(bytes.TrimSpace(msg), keys.Verifiers)
	if err != nil {
		old, err = openHead(msg, keys.Verifiers)
	}
	if err != nil {
		headError("the head given (--head)", err, r)
		return
	}
	r.checkExtends(old, fmt.Sprintf("the head given (size %d, root %s)", old.Size, old.RootBase64()))
}

// CheckWitnessed checks that the log extends every signed head a witness
// holds (msgs, WitnessHeads): a consistency proof from each to the log's
// latest tree. A witnessed head the public keys do not verify is an
// issue, not a note: the heads beside the log and their key may have
// been replaced together, and a witness exists to find exactly that.
func (r *HeadReport) CheckWitnessed(msgs [][]byte, keys PublicKeys) {
	if len(msgs) == 0 {
		r.Issues = append(r.Issues, "removed: the witness file holds no signed head")
		return
	}
	for i, msg := range msgs {
		what := fmt.Sprintf("witnessed head %d", i+1)
		h, err := openHead(msg, keys.Verifiers)
		if err != nil {
			r.Issues = append(r.Issues, fmt.Sprintf("not checked: %s does not verify with key id %s: %v (the log's key was replaced, or give the key the witness holds with --pub)", what, r.KeyID, err))
			continue
		}
		r.checkExtends(h, fmt.Sprintf("%s (size %d, root %s)", what, h.Size, h.RootBase64()))
	}
}

// checkExtends checks, with a consistency proof, that the log's latest
// tree extends the signed head old, named by what in the findings.
func (r *HeadReport) checkExtends(old Head, what string) {
	t := r.tree
	switch {
	case t == nil:
		r.Issues = append(r.Issues, fmt.Sprintf("removed: %s could not be checked: the log has no tree to prove it against", what))
		return
	case old.Size > t.size:
		r.Issues = append(r.Issues, fmt.Sprintf("removed: the log ends at seq %d, before the end of %s: the log was cut or rolled back", t.size, what))
		return
	case old.Size < t.base:
		r.Notes = append(r.Notes, fmt.Sprintf("%s covers lines in files deleted by rotation; not checked", what))
		return
	}
	root, err := t.root(t.size)
	if err == nil {
		var proof tlog.TreeProof
		if proof, err = tlog.ProveTree(t.size, old.Size, t.store); err == nil {
			err = tlog.CheckTree(proof, t.size, root, old.Size, old.Root)
		}
	}
	if err != nil {
		r.Issues = append(r.Issues, fmt.Sprintf("changed: the log is not an extension of %s: %v", what, err))
	}
}

// WitnessHeads splits a witness file into its signed heads: either lines
// of FILE.heads ({"note": …}), or signed notes one after another, each
// starting with the line HeadOrigin.
func WitnessHeads(b []byte) [][]byte {
	var out [][]byte
	var cur []byte
	flush := func() {
		if len(bytes.TrimSpace(cur)) > 0 {
			out = append(out, cur)
		}
		cur = nil
	}
	for line := range bytes.Lines(b) {
		if t := bytes.TrimSpace(line); len(t) > 0 && t[0] == '{' {
			flush()
			var rec headRecord
			if json.Unmarshal(t, &rec) == nil && rec.Note != "" {
				out = append(out, []byte(rec.Note))
			} else {
				out = append(out, t) // does not open: an issue, never skipped
			}
			continue
		}
		if string(bytes.TrimRight(line, "\r\n")) == HeadOrigin {
			flush()
		}
		cur = append(cur, line...)
	}
	flush()
	for i, m := range out { // a note ends with its last signature line's newline, and nothing after
		out[i] = append(bytes.TrimRight(m, "\r\n"), '\n')
	}
	return out
}

// InclusionProof proves that one line of the log is in a signed head:
// the head, the line as written, its leaf index (seq - 1) and the audit
// path (RFC 6962, from the leaf up, base64). docs/logverify checks it
// with SHA-256 and Ed25519 alone.
type InclusionProof struct {
	Head  string   `json:"head"`
	Index int64    `json:"index"`
	Line  string   `json:"line"`
	Proof []string `json:"proof"`
}

// ProveDecision returns the inclusion proof of the decision line of
// decisionID in the latest signed head of the log at path that holds it,
// verified with v.
func ProveDecision(path, decisionID string, v PublicKeys) (InclusionProof, error) {
	var line []byte
	var seq int64
	want := []byte(`"decision_id":"` + decisionID + `"`)
	err := scanLines(path, 0, false, func(l rawLine) error {
		if bytes.Contains(l.text, want) && bytes.Contains(l.text, []byte(`"phase":"decision"`)) {
			line, seq = append([]byte(nil), l.text...), l.seq
		}
		return nil
	})
	if err != nil {
		return InclusionProof{}, err
	}
	if line == nil {
		return InclusionProof{}, fmt.Errorf("no decision %s in %s", decisionID, path)
	}
	rep, err := VerifyHeads(path, v)
	if err != nil {
		return InclusionProof{}, err
	}
	if !rep.OK() {
		return InclusionProof{}, fmt.Errorf("the signed heads do not hold (%s): see deskbridge log verify", strings.Join(rep.Issues, "; "))
	}
	if rep.Latest.Size < seq {
		return InclusionProof{}, fmt.Errorf("the decision (seq %d) is not yet in a signed head (the latest is of size %d): a head is signed when a host process closes the log", seq, rep.Latest.Size)
	}
	p, err := tlog.ProveRecord(rep.Latest.Size, seq-1, rep.tree.store)
	if err != nil {
		return InclusionProof{}, err
	}
	return InclusionProof{Head: rep.Latest.Note, Index: seq - 1, Line: string(line), Proof: encodeHashes(p)}, nil
}
