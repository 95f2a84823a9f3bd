package engine_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
)

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestImportAllowed(t *testing.T) {
	f := newNetFixture(t, network{}, nil)
	writeFile(t, filepath.Join(f.imp, "art", "logo.png"), pngBytes)
	r := f.call(t, "import_asset", map[string]any{"source": filepath.Join(f.imp, "art", "logo.png"), "destination": f.ws})
	r.wantOK(t)
	dst := filepath.Join(f.ws, "logo.png")
	if got, err := os.ReadFile(dst); err != nil || string(got) != string(pngBytes) {
		t.Fatalf("%s = %q, %v", dst, got, err)
	}
	if r.data["path"] != dst || r.data["size"] != float64(len(pngBytes)) || r.data["sha256"] != sha(pngBytes) || r.data["created"] != true {
		t.Fatalf("data = %v", r.data)
	}
	// Never overwrites unless asked to.
	writeFile(t, filepath.Join(f.imp, "logo.png"), []byte("new"))
	f.call(t, "import_asset", map[string]any{"source": filepath.Join(f.imp, "logo.png"), "destination": dst}).want(t, protocol.FileAlreadyExists)
	if got, _ := os.ReadFile(dst); string(got) != string(pngBytes) {
		t.Fatalf("the existing file changed to %q", got)
	}
	r = f.call(t, "import_asset", map[string]any{"source": filepath.Join(f.imp, "logo.png"), "destination": dst, "overwrite": true})
	r.wantOK(t)
	if got, _ := os.ReadFile(dst); string(got) != "new" || r.data["created"] != false {
		t.Fatalf("after overwrite: %q, data %v", got, r.data)
	}
	if names := entries(t, f.ws); len(names) != 1 {
		t.Fatalf("workspace holds %v, want only logo.png (no temporaries)", names)
	}
}

func TestImportDenied(t *testing.T) {
	f := newNetFixture(t, network{}, nil)
	elsewhere := t.TempDir()
	writeFile(t, filepath.Join(elsewhere, "secret.png"), pngBytes)
	writeFile(t, filepath.Join(f.imp, ".env"), []byte("TOKEN=x"))
	writeFile(t, filepath.Join(f.imp, "keys", "id_ed25519"), []byte("key"))
	writeFile(t, filepath.Join(f.ws, "mine.png"), pngBytes)
	writeFile(t, filepath.Join(f.imp, "ok.png"), pngBytes)
	if err := os.Symlink(filepath.Join(elsewhere, "secret.png"), filepath.Join(f.imp, "link.png")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(f.imp, "linkdir")); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	tests := []struct {
		name, source, dest string
		want               protocol.Code
	}{
		{"outside import_sources", filepath.Join(elsewhere, "secret.png"), f.ws, protocol.AssetImportDenied},
		{"from the workspace", filepath.Join(f.ws, "mine.png"), filepath.Join(f.ws, "copy.png"), protocol.AssetImportDenied},
		{"dot-dot out", filepath.Join(f.imp, "..", filepath.Base(elsewhere), "secret.png"), f.ws, protocol.AssetImportDenied},
		{"sensitive .env", filepath.Join(f.imp, ".env"), filepath.Join(f.ws, "env.txt"), protocol.AssetImportDenied},
		{"sensitive key", filepath.Join(f.imp, "keys", "id_ed25519"), filepath.Join(f.ws, "k.txt"), protocol.AssetImportDenied},
		{"symlink out", filepath.Join(f.imp, "link.png"), f.ws, protocol.AssetImportDenied},
		{"symlinked folder out", filepath.Join(f.imp, "linkdir", "secret.png"), f.ws, protocol.AssetImportDenied},
		{"the import source itself", f.imp, filepath.Join(f.ws, "x"), protocol.AssetImportDenied},
		{"destination outside the workspace", filepath.Join(f.imp, "ok.png"), filepath.Join(outside, "ok.png"), protocol.WorkspaceViolation},
		{"destination protected", filepath.Join(f.imp, "ok.png"), f.log, protocol.WorkspaceViolation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.call(t, "import_asset", map[string]any{"source": tt.source, "destination": tt.dest}).want(t, tt.want)
		})
	}
	wantEmpty(t, outside)
	if names := entries(t, f.ws); len(names) != 1 {
		t.Fatalf("workspace holds %v, want only mine.png", names)
	}
}
