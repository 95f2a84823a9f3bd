package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// manifestDoc is the native messaging host manifest. Exactly one of
// AllowedOrigins (Chromium family) and AllowedExtensions (Firefox) is set.
type manifestDoc struct {
	Name              string   `json:"name"`
	Description       string   `json:"description"`
	Path              string   `json:"path"`
	Type              string   `json:"type"`
	AllowedOrigins    []string `json:"allowed_origins,omitempty"`
	AllowedExtensions []string `json:"allowed_extensions,omitempty"`
}

const description = "DeskBridge native messaging host"

// The extension id patterns are compiled on first use: a host started per
// message links this package but never installs.
var (
	chromeID  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-p]{32}$`) })
	firefoxID = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}|[a-zA-Z0-9._-]+@[a-zA-Z0-9._-]+)$`)
	})
)

// maxFirefoxID bounds a Firefox add-on id (AMO refuses longer ones).
const maxFirefoxID = 80

// ChromeOrigin validates a Chromium extension id, given bare
// ("abcdefghijklmnopabcdefghijklmnop") or as an origin
// ("chrome-extension://abcdefghijklmnopabcdefghijklmnop/"), and returns the
// exact origin the manifest lists. Wildcards are never accepted.
func ChromeOrigin(id string) (string, error) {
	bare := strings.TrimSuffix(strings.TrimPrefix(id, "chrome-extension://"), "/")
	if !chromeID().MatchString(bare) {
		return "", fmt.Errorf("%q is not a Chromium extension id: want 32 letters a-p, as chrome://extensions shows it", id)
	}
	return "chrome-extension://" + bare + "/", nil
}

// FirefoxID validates a Firefox add-on id: "name@example.org" or a
// braced GUID.
func FirefoxID(id string) (string, error) {
	if len(id) > maxFirefoxID || !firefoxID().MatchString(id) {
		return "", fmt.Errorf("%q is not a Firefox add-on id: want name@example.org or {GUID}", id)
	}
	return id, nil
}

// Manifest returns the host manifest that browser b reads: hostPath is the
// absolute path of the deskbridge binary, ids the extension ids allowed to
// connect (Chromium ids or origins for the Chromium family, add-on ids for
// Firefox). It fails on a relative path, no ids, or any invalid id.
func Manifest(b Browser, hostPath string, ids []string) ([]byte, error) {
	if !isAbs(hostPath) {
		return nil, fmt.Errorf("host path %q is not absolute", hostPath)
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("no extension id for %s", b)
	}
	doc := manifestDoc{Name: HostName, Description: description, Path: hostPath, Type: "stdio"}
	var err error
	if b.Family() {
		doc.AllowedOrigins, err = mapIDs(ids, ChromeOrigin)
	} else {
		doc.AllowedExtensions, err = mapIDs(ids, FirefoxID)
	}
	if err != nil {
		return nil, err
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	return append(out, '\n'), err
}

func mapIDs(ids []string, check func(string) (string, error)) ([]string, error) {
	out := make([]string, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		v, err := check(id)
		if err != nil {
			return nil, err
		}
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out, nil
}

// isAbs reports whether p is absolute in Unix ("/usr/bin/x") or Windows
// ("C:\x", "C:/x", "\\server\share\x") form.
func isAbs(p string) bool {
	if strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\\`) {
		return true
	}
	return len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// parseManifest decodes a manifest read back from disk.
func parseManifest(data []byte) (manifestDoc, error) {
	var doc manifestDoc
	if err := json.Unmarshal(data, &doc); err != nil {
		return doc, errors.New("the manifest is not valid JSON")
	}
	return doc, nil
}
