//go:build !windows

package browser

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// commandOpener runs a program with the URL as its only argument.
type commandOpener struct {
	program string
	dirs    []string // the folders the program is looked for in
}

// OpenURL starts the program and reaps it in the background: some
// openers wait for the browser they start. A program in none of the
// folders is a *NotFoundError; a failed start wraps ErrNoOpener or
// ErrStart.
func (c commandOpener) OpenURL(_ context.Context, url string) error {
	path := c.find()
	if path == "" {
		return &NotFoundError{Program: c.program, Err: fmt.Errorf("not in %s: %w", strings.Join(c.dirs, ", "), fs.ErrNotExist)}
	}
	cmd := exec.Command(path, url)
	cmd.Env = withPath(os.Environ(), strings.Join(c.dirs, string(os.PathListSeparator)))
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return fmt.Errorf("%w: %w", ErrNoOpener, err)
		}
		return fmt.Errorf("%w: %w", ErrStart, err)
	}
	go cmd.Wait()
	return nil
}

// find returns the program's path in the first of c.dirs that holds it as
// an executable regular file, or "".
func (c commandOpener) find() string {
	for _, d := range c.dirs {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, c.program)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// withPath returns env with PATH set to path.
func withPath(env []string, path string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+path)
}
