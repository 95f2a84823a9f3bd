//go:build !windows && !darwin

package browser

func systemOpener(dirs []string) Opener { return commandOpener{program: "xdg-open", dirs: dirs} }
