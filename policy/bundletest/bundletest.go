// Package bundletest builds signed OPA policy bundles for tests, with
// OPA's own bundle and signing code and a fresh key.
package bundletest

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/bundle"
)

// KeyID is the key id the bundles are signed with.
const KeyID = "deskbridge-test"

// Key is an RSA key pair in PEM.
type Key struct {
	PrivatePEM, PublicPEM string
}

// NewKey generates an RSA key pair.
func NewKey(t testing.TB) Key {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return Key{
		PrivatePEM: string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})),
		PublicPEM:  string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})),
	}
}

// Build returns the bytes of a bundle (.tar.gz) holding modules, with the
// manifest revision rev, signed by key unless key is nil.
func Build(t testing.TB, modules map[string]string, rev string, key *Key) []byte {
	t.Helper()
	b := newBundle(modules, rev)
	if key != nil {
		if err := b.GenerateSignature(bundle.NewSigningConfig(key.PrivatePEM, "RS256", ""), KeyID, false); err != nil {
			t.Fatal(err)
		}
	}
	return write(t, b)
}

// WriteFile writes b to dir/name and returns its path.
func WriteFile(t testing.TB, dir, name string, b []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Tampered signs a bundle of signedModules with key, then swaps in
// modules before writing it: a policy changed after it was signed.
func Tampered(t testing.TB, signedModules, modules map[string]string, rev string, key Key) []byte {
	t.Helper()
	b := newBundle(signedModules, rev)
	if err := b.GenerateSignature(bundle.NewSigningConfig(key.PrivatePEM, "RS256", ""), KeyID, false); err != nil {
		t.Fatal(err)
	}
	b.Modules = newBundle(modules, rev).Modules
	return write(t, b)
}

func newBundle(modules map[string]string, rev string) bundle.Bundle {
	b := bundle.Bundle{Manifest: bundle.Manifest{Revision: rev}, Data: map[string]any{}}
	for name, text := range modules {
		b.Modules = append(b.Modules, bundle.ModuleFile{URL: "/" + name, Path: "/" + name, Raw: []byte(text)})
	}
	return b
}

func write(t testing.TB, b bundle.Bundle) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := bundle.NewWriter(&buf).Write(b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// BuildWithData is Build with data documents: the bundle's data.json holds
// data (its members are the names under data they take).
func BuildWithData(t testing.TB, modules map[string]string, data map[string]any, rev string, key *Key) []byte {
	t.Helper()
	b := newBundle(modules, rev)
	b.Data = data
	if key != nil {
		if err := b.GenerateSignature(bundle.NewSigningConfig(key.PrivatePEM, "RS256", ""), KeyID, false); err != nil {
			t.Fatal(err)
		}
	}
	return write(t, b)
}

// BuildWithRoots is Build with the manifest's roots set to roots.
func BuildWithRoots(t testing.TB, modules map[string]string, roots []string, rev string, key *Key) []byte {
	t.Helper()
	b := newBundle(modules, rev)
	b.Manifest.Roots = &roots
	if key != nil {
		if err := b.GenerateSignature(bundle.NewSigningConfig(key.PrivatePEM, "RS256", ""), KeyID, false); err != nil {
			t.Fatal(err)
		}
	}
	return write(t, b)
}
