package engine

import (
	"context"
	"os"

	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/panel"
	"github.com/deskbridge/deskbridge/sandbox/preview"
	"github.com/deskbridge/deskbridge/sandbox/wsview"
)

// RunPreviewServer is the process of `deskbridge preview-serve SPEC`,
// which preview_web starts detached: it serves the spec's folder until its
// time to live has passed, withholding what the host's classifier (the
// built-in patterns and the spec's) calls secret.
func RunPreviewServer(ctx context.Context, spec string) error {
	return preview.Run(ctx, spec, func(secret, executes []string) wsview.Classifier {
		c := facts.NewClassifier(secret, executes)
		return wsview.ClassifierFunc(func(rel string, _ bool) string { return c.ClassifySlash(rel) })
	})
}

// RunPanelServer is the process of `deskbridge panel-serve SPEC`, which
// open_deskbridge starts detached.
func RunPanelServer(ctx context.Context, spec string) error {
	return panel.Run(ctx, spec, os.Stdout)
}
