package main

import (
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
	"github.com/deskbridge/deskbridge/internal/cliflag"
)

// previewServe runs `deskbridge preview-serve SPEC`, the detached preview
// server preview_web starts; it is not meant to be run by hand.
func previewServe(args []string, stdout, stderr io.Writer) int {
	if code, ok := serverArgs("preview-serve", "preview_web", args, stdout, stderr); !ok {
		return code
	}
	ctx, stop := signalContext() // `deskbridge status --stop`'s SIGTERM: stop as at the expiry
	defer stop()
	if err := engine.RunPreviewServer(ctx, args[0], install.ManifestDirs()); err != nil {
		fmt.Fprintln(stderr, "deskbridge: preview-serve:", err)
		return 1
	}
	return 0
}

// panelServe runs `deskbridge panel-serve SPEC`, the detached control
// panel open_deskbridge starts; it is not meant to be run by hand.
func panelServe(args []string, stdout, stderr io.Writer) int {
	if code, ok := serverArgs("panel-serve", "open_deskbridge", args, stdout, stderr); !ok {
		return code
	}
	ctx, stop := signalContext()
	defer stop()
	if err := engine.RunPanelServer(ctx, args[0]); err != nil {
		fmt.Fprintln(stderr, "deskbridge: panel-serve:", err)
		return 1
	}
	return 0
}

// serverArgs checks a detached server's command line: one JSON spec, which
// the action that starts the server writes, not a person.
func serverArgs(name, starter string, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	c := cliflag.New(name, "usage: deskbridge "+name+" SPEC\n\nServe what the JSON SPEC names; "+starter+" starts this, not a person.\n", stdout, stderr)
	if code, ok := c.Parse(args); !ok {
		return code, false
	}
	return c.Args(1, 1)
}
