package main

import (
	"context"
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/install"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/sandbox/browser"
)

const panelUsage = `usage: deskbridge [--config FILE] panel [--open]

Start the control panel (or find the running one) and print a one-time
link to it: the first visit spends the link for a session of the browser
that opened it. With --open, open the link in the browser instead of
printing it.

The panel is for the person at this computer: open_deskbridge never hands
a link to the extension that asks (docs/control-panel.md).
`

// panelCommand runs `deskbridge panel`: it prints (or opens) a fresh
// one-time link to the control panel of the host's configuration.
func panelCommand(configPath string, args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("panel", panelUsage, stdout, stderr)
	open := c.Flags.Bool("open", false, "open the link in the browser instead of printing it")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	ctx, stop := signalContext()
	defer stop()
	u, err := panelLink(ctx, configPath, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: panel: %v\n", err)
		return 1
	}
	if !*open {
		fmt.Fprintln(stdout, u)
		return 0
	}
	if err := browser.Open(ctx, browser.System(cmdfacts.Native().Dirs), u); err != nil {
		fmt.Fprintf(stderr, "deskbridge: panel: the link could not be opened (%v); run deskbridge panel without --open and open the link it prints\n", err)
		return 1
	}
	return 0
}

// panelLink starts a host of the configuration the browser's host reads
// and asks it for a one-time link to the panel.
func panelLink(ctx context.Context, configPath string, stderr io.Writer) (string, error) {
	cfg, _, err := config.Load(configPath)
	if err != nil {
		return "", err
	}
	h, err := engine.Start(ctx, engine.Options{Config: cfg, Channel: engine.ChannelCLI, HostLog: stderr, ProtectedPaths: install.ManifestDirs()})
	if err != nil {
		return "", err
	}
	defer h.Close()
	return h.PanelLink(ctx)
}
