package decisionlog

import (
	"errors"
	"testing"
)

// TestCheckHeadExtends: a witness accepts a later head with its
// consistency proof, and refuses a smaller head (a rollback) and a later
// head without a proof from the one it holds.
func TestCheckHeadExtends(t *testing.T) {
	path, _ := signedLog(t, 3, Options{})
	keys, err := LoadPublicKey(PublicKeyPath(path))
	if err != nil {
		t.Fatal(err)
	}
	notes, err := SignedHeadNotes(path)
	if err != nil || len(notes) != 3 {
		t.Fatalf("SignedHeadNotes = %d, %v; want 3", len(notes), err)
	}
	first, _ := OpenHead([]byte(notes[0]), keys)
	last, _ := OpenHead([]byte(notes[2]), keys)
	proof, err := ProveHeadConsistency(path, keys, first.Size, last.Size)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CheckHeadExtends([]byte(notes[0]), []byte(notes[2]), proof, keys); err != nil {
		t.Fatalf("a later head with its proof: %v", err)
	}
	if _, err := CheckHeadExtends(nil, []byte(notes[0]), nil, keys); err != nil {
		t.Fatalf("the first head a witness holds: %v", err)
	}
	if _, err := CheckHeadExtends([]byte(notes[2]), []byte(notes[0]), nil, keys); !errors.Is(err, ErrNotConsistent) {
		t.Fatalf("a smaller head: %v; want it refused", err)
	}
	if _, err := CheckHeadExtends([]byte(notes[0]), []byte(notes[2]), nil, keys); !errors.Is(err, ErrNotConsistent) {
		t.Fatalf("a later head without a proof: %v; want it refused", err)
	}
}
