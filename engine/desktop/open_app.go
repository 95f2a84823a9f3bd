package desktop

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/envelope"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/launch"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
)

type openAppArgs struct {
	// App is the logical name: a desktop file ID without ".desktop" on
	// Linux, an .app's name on macOS, an App Paths name on Windows.
	App  string   `json:"app" jsonschema:"required,minLength=1,maxLength=128"`
	Args []string `json:"args" jsonschema:"maxItems=64"`
}

// Validate checks the name's form and refuses a NUL in an argument.
func (a *openAppArgs) Validate() error {
	if !desktop.ValidAppName(a.App) {
		return envelope.ArgumentError("The argument app must be an application's logical name (letters, digits, . _ + - and spaces), not a path.")
	}
	if slices.ContainsFunc(a.Args, func(s string) bool { return strings.IndexByte(s, 0) >= 0 }) {
		return envelope.ArgumentError("An argument holds a NUL byte.")
	}
	return nil
}

func init() {
	action.Register(action.Spec{
		Name:    "open_app",
		NewArgs: func() any { return &openAppArgs{} },
		Facts:   openAppFacts,
		Run:     openApp,
	})
}

// openAppFacts judges the arguments as run_command's are
// (input.command.path_args): every argument that names a path is
// resolved and placed; an application has no working folder, so a bare
// word is not a path, and a relative path is placed nowhere.
func openAppFacts(_ context.Context, env *action.Env, c *action.Call) *protocol.Error {
	a := action.Args[openAppArgs](c)
	f, err := cmdfacts.Build(cmdfacts.Request{Argv: append([]string{a.App}, a.Args...)}, cmdfacts.Native(), action.Locate(env.Paths))
	if err != nil {
		var pe *protocol.Error
		if errors.As(err, &pe) {
			return pe
		}
		return protocol.Wrap(protocol.InvalidRequest, err, "The arguments could not be read.")
	}
	f.Resolved = ""
	f.PathArgs = slices.DeleteFunc(f.PathArgs, func(pa cmdfacts.PathArg) bool {
		return pa.Canonical == "" && !pathLike(pa.Value)
	})
	c.Command = &f
	return nil
}

// pathLike reports whether an argument that could not be placed still
// reads as a path (relative, with a separator or a leading dot or tilde).
func pathLike(v string) bool {
	return strings.ContainsAny(v, `/\`) || strings.HasPrefix(v, ".") || strings.HasPrefix(v, "~") || filepath.VolumeName(v) != ""
}

// openApp starts the application with the judged arguments.
func openApp(ctx context.Context, _ *action.Env, c *action.Call) (any, *protocol.Error) {
	a := action.Args[openAppArgs](c)
	l, err := launch.Result(desktop.OpenApp(ctx, a.App, a.Args, systemDirs()))
	if err != nil {
		return nil, errmap.Desktop(err, "Starting the application")
	}
	return openedOf(openedData{App: a.App}, l), nil
}
