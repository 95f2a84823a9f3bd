package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFirefoxLaunchRefused checks that the form Firefox starts a host with
// is refused with a reason on stderr (Firefox shows it in its console),
// and that Chrome's form and the commands are not taken for it.
func TestFirefoxLaunchRefused(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		firefox bool
	}{
		{"firefox linux", []string{"/home/ana/.mozilla/native-messaging-hosts/com.deskbridge.host.json", "deskbridge@example.org"}, true},
		{"firefox windows", []string{`C:\Program Files\DeskBridge\com.deskbridge.host.firefox.JSON`, "{8f3c1a52-2d1e-4a5b-9a67-0c1d2e3f4a5b}"}, true},
		{"chrome windows", []string{"chrome-extension://kchjooaflobjdffhdcmpandkkdjhbhmo/", "--parent-window=0"}, false},
		{"command", []string{"call", "get_status"}, false},
		{"one json argument", []string{"/x/com.deskbridge.host.json"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := firefoxLaunch(tt.args); got != tt.firefox {
				t.Errorf("firefoxLaunch(%q) = %v, want %v", tt.args, got, tt.firefox)
			}
		})
	}
	var out, errOut bytes.Buffer
	code := run(tests[0].args, strings.NewReader(""), &out, &errOut)
	if code != 1 || out.Len() != 0 || !strings.Contains(errOut.String(), "Firefox is not supported yet") {
		t.Errorf("run(firefox form): exit %d, stdout %q, stderr %q", code, out.String(), errOut.String())
	}
}
