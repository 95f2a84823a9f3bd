package config

import "testing"

// TestCheckPreviewOrigin: only bare https origins (http on loopback) may
// enter a preview's Content-Security-Policy; anything that would widen
// or break the policy is refused.
func TestCheckPreviewOrigin(t *testing.T) {
	for _, ok := range []string{"https://cdn.jsdelivr.net", "https://unpkg.com:8443", "http://127.0.0.1:8080", "http://localhost:3000", "http://[::1]:9"} {
		if err := checkPreviewOrigin(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "*", "https://*.example.org", "https:", "https://cdn.example.org/", "https://cdn.example.org/x.css",
		"https://a.org 'unsafe-eval'", "https://a.org;script-src *", "http://cdn.example.org", "data:", "javascript:alert(1)",
		"https://user@cdn.example.org", "https://CDN.example.org", "https://a.org?x", "https://a.org#x", "ftp://a.org", "'self'", "https://a.org,https://b.org"} {
		if checkPreviewOrigin(bad) == nil {
			t.Errorf("%q passed", bad)
		}
	}
}
