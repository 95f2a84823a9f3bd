// Package browser opens http and https URLs in the user's default browser
// for open_in_browser. The URL is handed to the platform's opener as one
// argument (xdg-open, open) or one ShellExecute parameter; no shell ever
// sees it, and the opener's exit status is waited for (up to OpenWait).
// Failures wrap the sentinel kinds ErrRefusedURL, ErrNoOpener, ErrStart,
// ErrFailed and ErrNUL; the engine words them for the user.
package browser

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// Opener hands a URL to the platform to open.
type Opener interface {
	OpenURL(ctx context.Context, url string) error
}

// ErrRefusedURL is returned, wrapped, by Open for a URL it will not hand
// to an opener.
var ErrRefusedURL = errors.New("refused URL")

// Open hands u to o. Pass the normalised URL whose facts the policy
// allowed; Open checks again that it is an absolute http or https URL with
// a host, no user info and no white space or control character, and in
// the form net/url writes it, so that whatever reaches the opener is one
// plain web address and never an option or a local file.
func Open(ctx context.Context, o Opener, u string) error {
	if err := checkURL(u); err != nil {
		return fmt.Errorf("browser: %w: %v", ErrRefusedURL, err)
	}
	return o.OpenURL(ctx, u)
}

// checkURL is Open's check.
func checkURL(raw string) error {
	if strings.ContainsFunc(raw, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		return errors.New("white space or a control character")
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return err
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("scheme %q", u.Scheme)
	case u.Host == "" || u.Opaque != "":
		return errors.New("no host")
	case u.User != nil:
		return errors.New("user info")
	case u.String() != raw:
		return errors.New("not in normalised form")
	}
	return nil
}

// System returns the platform's opener:
//   - Linux and other Unix systems: xdg-open;
//   - macOS: open;
//   - Windows: ShellExecute with the "open" verb.
//
// dirs are the only folders the opener program is looked for in, in order
// (the system folders run_command resolves programs from,
// cmdfacts.Platform.Dirs), never the PATH the host inherited: a program
// planted in ~/.local/bin would otherwise run outside every sandbox. The
// opener also runs with PATH set to dirs, so the programs it starts in
// turn are found there too. ShellExecute looks nothing up by name.
func System(dirs []string) Opener { return systemOpener(dirs) }
