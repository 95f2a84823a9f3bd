// Package e2e runs the native messaging host inside a real browser: Debian's
// chromium, headless, with the reference extension loaded, driven over the
// DevTools protocol on --remote-debugging-pipe. The tests build with the
// "e2e" tag (go test -tags e2e ./e2e/) and fail, never skip, when chromium
// is missing. The real host's workspace lives on /dev/shm (tmpfs): the
// message-cap test needs a sparse file of 2e18 bytes, more than ext4 allows.
package e2e
