// Package xvfb starts a virtual X server (Xvfb) for the tests of the
// desktop actions: a display of its own, on a number the server picks
// (-displayfd), so that tests never meet the user's session or each
// other's.
package xvfb

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Server is a running Xvfb.
type Server struct {
	// Display is its display name, such as ":93".
	Display string
	cmd     *exec.Cmd
}

// Width and Height are the screen's size.
const (
	Width  = 800
	Height = 600
)

// Start runs Xvfb with one 800×600 screen of 24-bit colour, no TCP
// listener and no reset when the last client leaves (a root window
// painted by xsetroot keeps its colour), and waits (up to 20 s) until it
// names its display.
func Start() (*Server, error) {
	path, err := exec.LookPath("Xvfb")
	if err != nil {
		return nil, fmt.Errorf("xvfb: %w (install the xvfb package)", err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cmd := exec.Command(path, "-displayfd", "3", "-screen", "0", fmt.Sprintf("%dx%dx24", Width, Height), "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	if err := cmd.Start(); err != nil {
		w.Close()
		return nil, err
	}
	w.Close()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case n := <-line:
		if n == "" {
			cmd.Process.Kill()
			cmd.Wait()
			return nil, errors.New("xvfb: the server exited without a display")
		}
		return &Server{Display: ":" + n, cmd: cmd}, nil
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		cmd.Wait()
		return nil, errors.New("xvfb: no display after 20 s")
	}
}

// Stop ends the server.
func (s *Server) Stop() {
	if s == nil {
		return
	}
	s.cmd.Process.Kill()
	s.cmd.Wait()
}

// Client runs an X client (xclip, xsetroot, xdotool) with env added to
// the test's environment and returns its output, failing t when it fails.
// With stdin (xclip -i), the client runs without output pipes: the child
// xclip leaves serving the selection must hold no pipe of the test's, or
// the run would wait for it.
func Client(t testing.TB, env []string, stdin []byte, name string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), env...)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %q: %v", name, args, err)
		}
		return nil
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %q: %v", name, args, err)
	}
	return out
}
