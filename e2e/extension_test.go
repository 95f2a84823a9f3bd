package e2e

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// extensionID is the reference extension's id, fixed by the public key in
// extension/manifest.json.
const extensionID = "kchjooaflobjdffhdcmpandkkdjhbhmo"

// idFromKey computes a Chromium extension id: the first 32 hex digits of
// the SHA-256 of the DER public key, each mapped 0-f to a-p.
func idFromKey(der []byte) string {
	sum := sha256.Sum256(der)
	return strings.Map(func(r rune) rune {
		if r <= '9' {
			return 'a' + r - '0'
		}
		return 'a' + 10 + r - 'a'
	}, hex.EncodeToString(sum[:16]))
}

// TestExtensionID checks that the committed key, the id the tests use and
// the id in extension/README.md agree.
func TestExtensionID(t *testing.T) {
	data, err := os.ReadFile("../extension/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Key string }
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	der, err := base64.StdEncoding.DecodeString(m.Key)
	if err != nil {
		t.Fatal(err)
	}
	if got := idFromKey(der); got != extensionID {
		t.Errorf("id from manifest key = %s, want %s", got, extensionID)
	}
	readme, err := os.ReadFile("../extension/README.md")
	if err != nil || !strings.Contains(string(readme), extensionID) {
		t.Errorf("extension/README.md does not state the id %s (%v)", extensionID, err)
	}
}
