package policy

import (
	"archive/tar"
	"compress/gzip"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestAttack2BundleBomb: a bundle is read whole, every file up to OPA's
// default 1 GiB limit, before its signature is checked. A 300 KiB unsigned
// .tar.gz holding 256 MiB of spaces makes a host whose configuration names
// a signed bundle allocate hundreds of MiB (several GiB with a few such
// files) at every start before refusing it, so whoever can replace the
// bundle file, without the signing key, stops the host.
func TestAttack2BundleBomb(t *testing.T) {
	path := filepath.Join(t.TempDir(), "policy.tar.gz")
	writeBombBundle(t, path, 256<<20)
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKIXPublicKey(pub)
	v := &Verification{KeyID: "k1", PublicKeyPEM: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = Bundle(path, v)
	runtime.ReadMemStats(&after)
	if err == nil {
		t.Fatal("an unsigned bundle was accepted")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("refusing an unsigned %d-byte bundle allocated %d MiB", fileSize(t, path), alloc>>20)
	}
}

// writeBombBundle writes a bundle with one small module and one module of
// n spaces.
func writeBombBundle(t *testing.T, path string, n int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	small := "package deskbridge.main\n"
	tw.WriteHeader(&tar.Header{Name: "/main.rego", Mode: 0o644, Size: int64(len(small))})
	io.WriteString(tw, small)
	tw.WriteHeader(&tar.Header{Name: "/big.rego", Mode: 0o644, Size: n})
	chunk := strings.Repeat(" ", 1<<20)
	for w := int64(0); w < n; w += int64(len(chunk)) {
		io.WriteString(tw, chunk)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
}

func fileSize(t *testing.T, path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
