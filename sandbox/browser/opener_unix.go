//go:build !windows && !darwin

package browser

var systemOpener Opener = commandOpener{program: "xdg-open"}
