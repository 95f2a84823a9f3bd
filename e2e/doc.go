// Package e2e runs the native messaging host inside a real browser: Debian's
// chromium, headless, with the reference extension loaded, driven over the
// DevTools protocol on --remote-debugging-pipe. The tests build with the
// "e2e" tag (go test -tags e2e ./e2e/) and fail, never skip, when chromium
// is missing.
package e2e
