// Package install registers the DeskBridge native messaging host with the
// browsers: it writes the host manifest where each browser looks for it (and,
// on Windows, the registry value that points to it), writes a starter
// configuration, removes both again, and diagnoses a registration.
//
// The layout knowledge is in two pure functions, [Manifest] and [Locations];
// everything that touches the file system or the registry goes through the
// small [FS] and [Registry] interfaces so that every browser × OS × scope can
// be checked on any machine. The command-line entry points are [RunInstall]
// and [RunUninstall]; `deskbridge doctor` (cmd/deskbridge) checks the
// registrations with [Installer.DoctorRegistrations].
package install

import (
	"fmt"
	"strings"
)

// HostName is the native messaging host name extensions pass to
// chrome.runtime.connectNative.
const HostName = "com.deskbridge.host"

// Browser names a browser that can start the host.
type Browser string

// The supported browsers.
const (
	Chrome   Browser = "chrome"
	Chromium Browser = "chromium"
	Edge     Browser = "edge"
	Brave    Browser = "brave"
	Vivaldi  Browser = "vivaldi"
	Firefox  Browser = "firefox"
)

// Browsers lists every supported browser, Chromium family first.
var Browsers = []Browser{Chrome, Chromium, Edge, Brave, Vivaldi, Firefox}

// Family reports whether b is a Chromium-family browser (manifest member
// allowed_origins) rather than Firefox (allowed_extensions).
func (b Browser) Family() bool { return b != Firefox }

// ParseBrowsers parses a comma-separated list of browser names; "all" (or
// an empty string) selects every browser.
func ParseBrowsers(s string) ([]Browser, error) {
	if s == "" || s == "all" {
		return Browsers, nil
	}
	var out []Browser
	for name := range strings.SplitSeq(s, ",") {
		b, err := parseBrowser(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

func parseBrowser(name string) (Browser, error) {
	for _, b := range Browsers {
		if string(b) == strings.ToLower(name) {
			return b, nil
		}
	}
	return "", fmt.Errorf("unknown browser %q (want one of chrome, chromium, edge, brave, vivaldi, firefox, all)", name)
}

// Scope says whether a registration is for the current user or system-wide.
type Scope int

// The registration scopes.
const (
	User Scope = iota
	System
)

// String returns "user" or "system".
func (s Scope) String() string {
	if s == System {
		return "system"
	}
	return "user"
}
