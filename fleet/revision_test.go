package fleet

import (
	"bytes"
	"context"
	"errors"
	"os"
	"testing"

	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/policy/bundletest"
)

func TestCompareRevisions(t *testing.T) {
	tests := []struct {
		a, b string
		want int
		ok   bool
	}{
		{"r1", "r2", -1, true},
		{"r10", "r9", 1, true},
		{"rev-7", "rev-7", 0, true},
		{"v1.2.9", "v1.10.0", -1, true},
		{"v1.2", "v1.2.1", -1, true},
		{"007", "7", 0, true},
		{"2026-12-04T10:00:00Z", "2026-12-05T09:00:00Z", -1, true},
		{"99999999999999999999999", "100000000000000000000000", -1, true},
		{"main-3", "hotfix-4", 0, false},
		{"3f9a1c2", "a41b7e0", 0, false},
		{"good", "bad", 0, false},
		{"", "r1", -1, true},
	}
	for _, tt := range tests {
		c, ok := CompareRevisions(tt.a, tt.b)
		if c != tt.want || ok != tt.ok {
			t.Errorf("CompareRevisions(%q, %q) = %d, %v; want %d, %v", tt.a, tt.b, c, ok, tt.want, tt.ok)
		}
		if back, _ := CompareRevisions(tt.b, tt.a); back != -c {
			t.Errorf("CompareRevisions(%q, %q) = %d, not the opposite of %d", tt.b, tt.a, back, c)
		}
	}
}

// TestSignedBundlesOnlyMoveForward: with r2 installed, a validly signed
// r1 (which lacks r2's rules) is refused and r2 stays; r3 installs; and a
// removed bundle file does not reopen r1.
func TestSignedBundlesOnlyMoveForward(t *testing.T) {
	srv, s := servedSetup(t)
	f := s.fleet(t)
	poll := func(rev, etag string) error {
		srv.publish(signed(t, s.key, rev), etag)
		_, err := f.PollBundle(context.Background())
		return err
	}
	if err := poll("r2", `"e2"`); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(s.bundle)
	if err := poll("r1", `"e1"`); !errors.Is(err, ErrRollback) {
		t.Fatalf("rolling back to r1: %v, want ErrRollback", err)
	}
	if after, _ := os.ReadFile(s.bundle); !bytes.Equal(before, after) || f.etag() != `"e2"` {
		t.Fatalf("the installed bundle or its etag changed (etag %q)", f.etag())
	}
	if err := poll("hotfix", `"e2b"`); !errors.Is(err, ErrRollback) {
		t.Fatalf("a bundle that cannot be ordered after r2: %v, want ErrRollback", err)
	}
	if err := poll("r3", `"e3"`); err != nil || installedRevision(t, s) != "r3" {
		t.Fatalf("r3: %v, installed %q", err, installedRevision(t, s))
	}
	os.Remove(s.bundle)
	if err := poll("r1", `"e1"`); !errors.Is(err, ErrRollback) {
		t.Fatalf("r1 after the bundle file was removed: %v, want ErrRollback", err)
	}
	if err := poll("r3", `"e3"`); err != nil || installedRevision(t, s) != "r3" {
		t.Fatalf("r3 fetched again: %v", err)
	}
}

// TestSameRevisionWithOtherContentIsRefused: a bundle re-signed under the
// installed revision with other rules is not taken for the same bundle.
func TestSameRevisionWithOtherContentIsRefused(t *testing.T) {
	srv, s := servedSetup(t)
	srv.publish(signed(t, s.key, "r5"), `"a"`)
	f := s.fleet(t)
	if _, err := f.PollBundle(context.Background()); err != nil {
		t.Fatal(err)
	}
	mods := map[string]string{}
	for k, v := range policy.Embedded().Modules {
		mods[k] = v + "\n# other rules\n"
	}
	srv.publish(bundletest.Build(t, mods, "r5", &s.key), `"b"`)
	if _, err := f.PollBundle(context.Background()); !errors.Is(err, ErrRollback) {
		t.Fatalf("same revision, other content: %v, want ErrRollback", err)
	}
}
