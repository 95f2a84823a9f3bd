package proc

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
)

// The child's own folders. A confined child (Spec.WritableRoots) gets a
// temporary folder made for its run alone, removed when the run ends, and,
// with Spec.CacheDir, caches of its own: the wall opens these and never a
// folder the user's own tools read, because what a confined child could
// write there (a planted module, a poisoned build cache entry, a symlink
// the user's next `go build` writes through) would run or be written
// outside the wall later.

// privateEnv points the child's temporary folder at tmp and, when cache is
// not empty, the caches of common tools below cache: the XDG cache (the go
// build cache, pip, node-gyp, yarn and most others), GOPATH and the module
// cache (named too, as the user's go env file may name its own), npm's
// cache and pip's. It goes after
// every other variable, so it wins over one a request set.
func privateEnv(tmp, cache string) []string {
	env := []string{"TMPDIR=" + tmp, "TMP=" + tmp, "TEMP=" + tmp, "GOTMPDIR=" + tmp} // GOTMPDIR: over the go env file's
	if cache == "" {
		return env
	}
	return append(env,
		"XDG_CACHE_HOME="+filepath.Join(cache, "xdg"),
		"GOCACHE="+filepath.Join(cache, "xdg", "go-build"),
		"GOPATH="+filepath.Join(cache, "go"),
		"GOMODCACHE="+filepath.Join(cache, "go", "pkg", "mod"), // over one in the user's go env file
		"npm_config_cache="+filepath.Join(cache, "npm"),
		"PIP_CACHE_DIR="+filepath.Join(cache, "pip"),
	)
}

// WorkspaceCache returns the cache folder for confined commands run in
// workspace (Spec.CacheDir): a folder below the host's state folder, one
// per workspace (cache/<the first 16 hex digits of the root's SHA-256>),
// so that what a command leaves in its caches reaches only later commands
// of the same workspace, never the user's own tools. It is "" when the
// folder cannot be made or is reached through a symbolic link; the command
// then runs without writable caches.
func WorkspaceCache(state, workspace string) string {
	if err := os.MkdirAll(state, 0o700); err != nil {
		return ""
	}
	base, err := filepath.EvalSymlinks(state)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(workspace))
	dir := filepath.Join(base, "cache")
	for _, d := range []string{dir, filepath.Join(dir, hex.EncodeToString(sum[:8]))} {
		if !realFolder(d) {
			return ""
		}
	}
	return filepath.Join(dir, hex.EncodeToString(sum[:8]))
}

// realFolder makes the folder d when it is missing and reports whether d
// is then a folder and not a symbolic link: Mkdir does not follow a link
// in d's place, as MkdirAll would.
func realFolder(d string) bool {
	if err := os.Mkdir(d, 0o700); err != nil && !os.IsExist(err) {
		return false
	}
	fi, err := os.Lstat(d)
	return err == nil && fi.IsDir()
}

// removeTemp removes the run's temporary folder tmp. A child may have left
// folders it cannot be removed from (mode 0500, or tmp itself 0): those
// are given back their owner's rights, without following links, and the
// removal tried again, so no run leaves a folder behind.
func removeTemp(tmp string) error {
	if os.RemoveAll(tmp) == nil {
		return nil
	}
	_ = os.Chmod(tmp, 0o700)
	_ = filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o700) // d is no link: WalkDir does not follow them
		}
		return nil
	})
	return os.RemoveAll(tmp)
}
