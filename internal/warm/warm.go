// Package warm is the meeting point of deskbridge-host, the small program
// a browser starts for every message, and a warm deskbridge process that
// keeps the compiled policy, the decision log and the path resolver
// between messages: the per-user folder of its socket, the socket's name,
// and the hello each connection starts with.
//
// The name is a hash of everything the warm process's answers depend on
// and a new process could see differently: the deskbridge binary (path,
// size, modification time), the --config argument, the working folder and
// the whole environment. A process started under other conditions meets
// another socket; the warm process itself checks, on each connection,
// that its configuration and policy files have not changed.
//
// It uses only the standard library and x/sys, so that deskbridge-host
// stays small and starts about as fast as an empty program.
package warm

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"time"

	"github.com/deskbridge/deskbridge/internal/jsonframe"
)

// Version is the hello's version: a deskbridge-host and a warm process of
// different versions do not talk.
const Version = 1

// Hello is the first frame of a connection, from deskbridge-host.
type Hello struct {
	Version int `json:"warm"`
	// Origin is the caller's origin, as the browser passed it.
	Origin string `json:"origin"`
}

// Reply answers a Hello: OK, or why not (the warm process is stale or
// refuses); on anything but OK deskbridge-host serves the message itself.
// After OK, deskbridge-host hands over its standard input, output and
// error (SendFiles), and the warm process serves them as a host started
// by the browser would.
type Reply struct {
	OK  bool   `json:"ok"`
	Why string `json:"why,omitempty"`
}

// What a warm process writes on its ready descriptor (`warm-serve
// --ready-fd`) for the deskbridge-host that started it; it closes the
// descriptor without a byte when it cannot serve.
const (
	// ReadyServing: it listens on the socket and its policy compiled.
	ReadyServing byte = 1
	// ReadyTaken: another warm process holds the socket's lock (several
	// deskbridge-hosts started one at once); that one answers a hello
	// once it serves (DialWait).
	ReadyTaken byte = 2
)

// Done is the last frame of a connection: the warm process has finished
// with the port, and Status is the exit status a host that served it
// itself would have had.
type Done struct {
	Status int `json:"status"`
}

// maxFrame caps a hello or reply frame.
const maxFrame = 4 << 10

// Key names the warm process for the deskbridge binary full, the
// --config argument config ("" when none) and this process's working
// folder and environment.
func Key(full, config string) (string, error) {
	fi, err := os.Stat(full)
	if err != nil {
		return "", err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	h := sha256.New()
	env := slices.Clone(os.Environ())
	slices.Sort(env)
	fmt.Fprintf(h, "deskbridge-warm %d\x00%s\x00%d\x00%d\x00%s\x00%s\x00%d\x00", Version, full, fi.Size(), fi.ModTime().UnixNano(), config, cwd, len(env))
	for _, e := range env {
		fmt.Fprintf(h, "%s\x00", e)
	}
	return hex.EncodeToString(h.Sum(nil))[:24], nil
}

// WriteFrame writes v as one frame: a 4-byte little-endian length, then
// its JSON, as the native messaging port frames messages.
func WriteFrame(w io.Writer, v any) error { return jsonframe.Write(w, v) }

// ReadFrame reads one frame of at most 4 KiB into v.
func ReadFrame(r io.Reader, v any) error { return jsonframe.Read(r, v, maxFrame) }

// ErrUnsupported is returned where this platform has no warm process.
var ErrUnsupported = errors.New("warm: not supported on this platform")

// helloWait is how long Dial waits for a serving warm process's answer.
const helloWait = 5 * time.Second

// hello says hello for origin on a new connection c and returns c once
// the warm process has answered OK, within wait; c is closed otherwise.
func hello(c net.Conn, origin string, wait time.Duration) (net.Conn, error) {
	var r Reply
	err := WriteFrame(c, Hello{Version: Version, Origin: origin})
	if err == nil {
		c.SetReadDeadline(time.Now().Add(wait))
		err = ReadFrame(c, &r)
		c.SetReadDeadline(time.Time{})
	}
	if err == nil && !r.OK {
		err = fmt.Errorf("warm: %s", r.Why)
	}
	if err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Dial connects to the warm process at socket, checks that it runs as
// this user, says hello for origin and returns the connection once the
// warm process has answered OK.
func Dial(socket, origin string) (net.Conn, error) {
	c, err := dial(socket)
	if err != nil {
		return nil, err
	}
	return hello(c, origin, helloWait)
}
