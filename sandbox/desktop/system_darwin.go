package desktop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
)

func system(o Options) Desktop {
	return &macDesktop{dirs: append([]string{"/usr/bin", "/usr/sbin"}, o.Dirs...), run: runHelper}
}

// appCommand opens /Applications/<name>.app with open -a, the arguments
// after --args.
func appCommand(name string, args, dirs []string) ([]string, error) {
	for _, root := range []string{"/Applications", "/System/Applications"} {
		p := filepath.Join(root, name+".app")
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return append([]string{"open", "-a", p, "--args"}, args...), nil
		}
	}
	return nil, &NotFoundError{Kind: ErrNotFound, Name: name, Err: errors.New("no " + name + ".app in /Applications")}
}

// openFolder runs open with the folder as its one argument.
func openFolder(ctx context.Context, path string, dirs []string) error {
	return Launch(ctx, []string{"open", path}, append([]string{"/usr/bin"}, dirs...), 0)
}

// MaybeRunOwner does nothing on macOS, whose pasteboard keeps what is put
// on it after the process exits.
func MaybeRunOwner() {}

const folderOpener = "open"
