// Package corpus loads the attack corpora kept under the repository's
// testdata folder, so that every layer that takes a kind of input runs the
// same list (the URL forms through the parser, the policy and the dialer).
package corpus

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// URLAttack is one case of testdata/url-attacks.json.
type URLAttack struct {
	Name string `json:"name"`
	// URL may hold PORT, standing for a loopback test server's port.
	URL string `json:"url"`
	// ResolvesTo is an address a name may resolve to, or "".
	ResolvesTo string `json:"resolves_to"`
	// Want is the error code the request must get, as on the wire.
	Want string `json:"want"`
}

// URLAttacks reads testdata/url-attacks.json, failing t when it is missing
// or empty.
func URLAttacks(t testing.TB) []URLAttack {
	t.Helper()
	data, err := os.ReadFile(Path("url-attacks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []URLAttack }
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Cases) == 0 {
		t.Fatalf("url-attacks.json: %v", err)
	}
	return doc.Cases
}

// Path returns the path of a file in the repository's testdata folder.
func Path(name string) string {
	_, here, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", name)
}

// SensitiveName is one case of testdata/sensitive-names.json: a path
// relative to a workspace and the sensitivity class it must have.
type SensitiveName struct {
	Path  string `json:"path"`
	Class string `json:"class"`
}

// SensitiveNames reads testdata/sensitive-names.json, failing t when it is
// missing or empty.
func SensitiveNames(t testing.TB) []SensitiveName {
	t.Helper()
	data, err := os.ReadFile(Path("sensitive-names.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Cases []SensitiveName }
	if err := json.Unmarshal(data, &doc); err != nil || len(doc.Cases) == 0 {
		t.Fatalf("sensitive-names.json: %v", err)
	}
	return doc.Cases
}
