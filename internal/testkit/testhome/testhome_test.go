package testhome

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMain(m *testing.M) { Main(m) }

// TestHomeIsTemporary: after Main, every default-path variable lies in the
// test's own folder, and the user's configuration is not named.
func TestHomeIsTemporary(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(os.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range homeVars {
		if p := os.Getenv(v); !strings.HasPrefix(p, tmp) || !strings.Contains(p, "deskbridge-home-") {
			t.Errorf("%s=%q, not in a temporary home", v, p)
		}
	}
	if d, err := os.UserConfigDir(); err != nil || !strings.Contains(d, "deskbridge-home-") {
		t.Errorf("os.UserConfigDir() = %q, %v: the real one", d, err)
	}
	if v, ok := os.LookupEnv("DESKBRIDGE_CONFIG"); ok {
		t.Errorf("DESKBRIDGE_CONFIG=%q is still set", v)
	}
	for _, v := range []string{"GOCACHE", "GOPATH", "GOENV"} {
		if p := os.Getenv(v); p == "" || strings.Contains(p, "deskbridge-home-") {
			t.Errorf("%s=%q: the Go tool lost its cache or settings", v, p)
		}
	}
}
