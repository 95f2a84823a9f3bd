// Package browser opens http and https URLs in the user's default browser
// for open_in_browser. The URL is handed to the platform's opener as one
// argument (xdg-open, open) or one ShellExecute parameter; no shell ever
// sees it.
package browser

import (
	"context"

	"github.com/deskbridge/deskbridge/engine/urlfacts"
)

// Opener hands a URL to the platform to open.
type Opener interface {
	OpenURL(ctx context.Context, url string) error
}

// Open parses rawURL again (only http and https, no user info; see
// urlfacts.Parse) and hands its normalised form to o. Pass the URL whose
// facts the policy allowed.
func Open(ctx context.Context, o Opener, rawURL string) error {
	u, err := urlfacts.Parse(rawURL)
	if err != nil {
		return err
	}
	return o.OpenURL(ctx, u.String())
}

// System returns the platform's opener:
//   - Linux and other Unix systems: xdg-open;
//   - macOS: open;
//   - Windows: ShellExecute with the "open" verb.
func System() Opener { return systemOpener }
