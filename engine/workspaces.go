package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/internal/pathform"
)

// systemFolders are the folders of the operating system itself: a
// workspace that is one of them, or holds one, hands the extension the
// machine's programs and settings.
func systemFolders() []string {
	if runtime.GOOS == "windows" {
		win := os.Getenv("SystemRoot")
		if win == "" {
			win = `C:\Windows`
		}
		return []string{win, os.Getenv("ProgramFiles"), os.Getenv("ProgramFiles(x86)"), os.Getenv("ProgramData")}
	}
	return []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/var", "/boot", "/dev", "/proc", "/sys",
		"/root", "/opt", "/srv", "/System", "/Library", "/Applications", "/private"}
}

// configFolders are system folders whose every file is the system's
// configuration or state: a workspace inside one is warned of too.
func configFolders() []string {
	if runtime.GOOS == "windows" {
		return systemFolders()[:1]
	}
	return []string{"/etc", "/boot", "/dev", "/proc", "/sys", "/private/etc"}
}

// CheckWorkspaces warns of workspaces that give away the machine or the
// user: the root of a file system, a system folder (or one holding one,
// or inside /etc and the like), the home folder (or one holding it); and
// of a workspace that holds one of DeskBridge's own files or folders
// (protectedPaths with extra), naming it: the host never writes it, and
// refuses every run_command in that workspace, which a command could
// change it from. `deskbridge doctor` prints the findings.
func CheckWorkspaces(cfg *config.Config, extra []string) []Finding {
	var out []Finding
	warn := func(w config.Workspace, format string, args ...any) {
		out = append(out, Finding{Level: LevelWarn, What: "workspace " + w.Name, Detail: w.Path + ": " + fmt.Sprintf(format, args...)})
	}
	home := canonical(homeDir())
	protected := protectedPaths(cfg, extra)
	for _, w := range cfg.Workspaces {
		switch {
		case isRoot(w.Path):
			warn(w, "is the root of the file system, so the extension may read the whole machine (every user's files, the system's settings): name the project folders instead")
		case holdsAny(w.Path, systemFolders()) != "":
			warn(w, "holds the system folder %s: name the project folders instead", holdsAny(w.Path, systemFolders()))
		case insideAny(w.Path, configFolders()) != "":
			warn(w, "is inside the system folder %s, whose files are the machine's settings: keep workspaces to your projects", insideAny(w.Path, configFolders()))
		case home != "" && inside(w.Path, home):
			warn(w, "is or holds your home folder %s, so the extension may read every file you have (mail, browser profiles, keys that are not named as secrets): name the project folders instead", home)
		}
		if p := holdsExisting(w.Path, protected); p != "" {
			warn(w, "holds DeskBridge's own %s, which the host never writes, and every run_command in this workspace is refused while it is there: move it out (state_dir, decision_log.path, --config) or name a folder without it", p)
		}
	}
	return out
}

// holdsAny is the first folder of folders (made canonical) that lies in
// root or is root, or "".
func holdsAny(root string, folders []string) string {
	for _, f := range folders {
		if f != "" && inside(root, canonical(f)) {
			return f
		}
	}
	return ""
}

// insideAny is the first folder of folders that holds p, or "".
func insideAny(p string, folders []string) string {
	for _, f := range folders {
		if f != "" && inside(canonical(f), p) {
			return f
		}
	}
	return ""
}

// holdsExisting is the first path of paths that exists and lies in root.
func holdsExisting(root string, paths []string) string {
	for _, p := range paths {
		if _, err := os.Lstat(p); err == nil && inside(root, p) {
			return p
		}
	}
	return ""
}

// inside reports whether p is root or lies below it, by whole names,
// ignoring case where the resolver does (facts.FoldCase).
func inside(root, p string) bool {
	r, err1 := pathform.Parse(pathform.Native, root)
	q, err2 := pathform.Parse(pathform.Native, p)
	if err1 != nil || err2 != nil {
		return false
	}
	within := pathform.Within
	if facts.FoldCase {
		within = pathform.WithinFold
	}
	_, ok := within(r, q)
	return ok
}

// isRoot reports whether p is the root of a file system (/, C:\).
func isRoot(p string) bool { return filepath.Dir(p) == p }

// canonical is p with its symlinks resolved, or p when it cannot be.
func canonical(p string) string {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real
	}
	return p
}

func homeDir() string {
	h, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(h) {
		return ""
	}
	return h
}
