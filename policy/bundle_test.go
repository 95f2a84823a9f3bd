package policy

import (
	"context"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/policy/bundletest"
)

func TestBundleSignature(t *testing.T) {
	key, other := bundletest.NewKey(t), bundletest.NewKey(t)
	dir := t.TempDir()
	mods := Embedded().Modules
	signed := bundletest.Build(t, mods, "rev-42", &key)
	flipped := append([]byte(nil), signed...)
	flipped[len(flipped)/2] ^= 0x01
	// The same signature over other module text: a tampered policy.
	tampered := clone(mods)
	tampered["origins.rego"] = strings.Replace(tampered["origins.rego"], `not origin_allowed`, `false`, 1)
	if tampered["origins.rego"] == mods["origins.rego"] {
		t.Fatal("the tampering changed nothing: follow origins.rego")
	}
	resigned := bundletest.Build(t, tampered, "rev-42", &other)
	verify := &Verification{KeyID: bundletest.KeyID, PublicKeyPEM: key.PublicPEM}
	for _, c := range []struct {
		name  string
		bytes []byte
		ok    bool
	}{
		{"signed", signed, true},
		{"one byte changed", flipped, false},
		{"unsigned", bundletest.Build(t, mods, "rev-42", nil), false},
		{"signed by another key", resigned, false},
		{"changed module, old signature", bundletest.Tampered(t, mods, tampered, "rev-42", key), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := bundletest.WriteFile(t, dir, strings.ReplaceAll(c.name, " ", "_")+".tar.gz", c.bytes)
			src, err := Bundle(path, verify)
			if c.ok != (err == nil) {
				t.Fatalf("ok=%v, err=%v", c.ok, err)
			}
			if c.ok && (src.Revision != "rev-42" || len(src.Modules) != len(mods)) {
				t.Fatalf("revision %q, %d modules", src.Revision, len(src.Modules))
			}
		})
	}
}

func TestBundleEngineReportsItsRevision(t *testing.T) {
	key := bundletest.NewKey(t)
	path := bundletest.WriteFile(t, t.TempDir(), "team.tar.gz", bundletest.Build(t, Embedded().Modules, "rev-7", &key))
	src, err := Bundle(path, &Verification{KeyID: bundletest.KeyID, PublicKeyPEM: key.PublicPEM})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(context.Background(), src, Options{Data: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if name, rev := e.Bundle(); e.Revision() != "rev-7" || name != "team" || rev != "rev-7" {
		t.Fatalf("revision %q, bundle %q at %q", e.Revision(), name, rev)
	}
}
