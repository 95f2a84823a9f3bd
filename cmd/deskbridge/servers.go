package main

import (
	"context"
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/engine"
)

// previewServe runs `deskbridge preview-serve SPEC`, the detached preview
// server preview_web starts; it is not meant to be run by hand.
func previewServe(args []string, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "deskbridge: preview-serve takes one JSON spec; preview_web starts it")
		return 2
	}
	if err := engine.RunPreviewServer(context.Background(), args[0]); err != nil {
		fmt.Fprintln(stderr, "deskbridge: preview-serve:", err)
		return 1
	}
	return 0
}

// panelServe runs `deskbridge panel-serve SPEC`, the detached control
// panel open_deskbridge starts; it is not meant to be run by hand.
func panelServe(args []string, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "deskbridge: panel-serve takes one JSON spec; open_deskbridge starts it")
		return 2
	}
	if err := engine.RunPanelServer(context.Background(), args[0]); err != nil {
		fmt.Fprintln(stderr, "deskbridge: panel-serve:", err)
		return 1
	}
	return 0
}
