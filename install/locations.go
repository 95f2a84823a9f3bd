package install

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// Env holds the per-user folders [Locations] builds paths from. Fields that a
// target OS does not use may be empty.
type Env struct {
	// Home is the user's home folder (Linux, macOS).
	Home string
	// XDGConfigHome is $XDG_CONFIG_HOME (Linux); empty means Home/.config.
	XDGConfigHome string
	// LocalAppData is %LOCALAPPDATA% (Windows, per-user manifests).
	LocalAppData string
	// ExeDir is the folder holding the deskbridge binary (Windows,
	// system-wide manifests live beside it).
	ExeDir string
	// ConfigDir is the OS user-configuration folder (os.UserConfigDir).
	ConfigDir string
}

// EnvFromOS reads Env from the running process's environment.
func EnvFromOS() Env {
	env := Env{XDGConfigHome: os.Getenv("XDG_CONFIG_HOME"), LocalAppData: os.Getenv("LOCALAPPDATA")}
	env.Home, _ = os.UserHomeDir()
	env.ConfigDir, _ = os.UserConfigDir()
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		env.ExeDir = filepath.Dir(exe)
	}
	return env
}

// RegistryRoot is a Windows registry hive.
type RegistryRoot string

// The hives host registrations live under.
const (
	HKCU RegistryRoot = "HKCU"
	HKLM RegistryRoot = "HKLM"
)

// RegistryValue names the default value of a registry key, which holds the
// manifest's path.
type RegistryValue struct {
	Root RegistryRoot
	Key  string // e.g. Software\Google\Chrome\NativeMessagingHosts\com.deskbridge.host
}

// String renders the value as HKCU\Software\….
func (r RegistryValue) String() string { return string(r.Root) + `\` + r.Key }

// Location is where one browser finds the host in one scope: the manifest
// file, and on Windows also the registry value pointing to it.
type Location struct {
	Manifest string
	Registry *RegistryValue // nil except on Windows
}

// unixDirs holds a browser's manifest folders on Linux or macOS. User paths
// are relative to the base folder ($XDG_CONFIG_HOME, ~/.mozilla, or
// ~/Library/Application Support); system paths are absolute.
type unixDirs struct{ user, system string }

// linuxDirs: user paths are relative to $XDG_CONFIG_HOME (default ~/.config),
// except Firefox, relative to the home folder.
var linuxDirs = map[Browser]unixDirs{
	Chrome:   {"google-chrome/NativeMessagingHosts", "/etc/opt/chrome/native-messaging-hosts"},
	Chromium: {"chromium/NativeMessagingHosts", "/etc/chromium/native-messaging-hosts"},
	Edge:     {"microsoft-edge/NativeMessagingHosts", "/etc/opt/edge/native-messaging-hosts"},
	Brave:    {"BraveSoftware/Brave-Browser/NativeMessagingHosts", "/etc/opt/chrome/native-messaging-hosts"},
	Vivaldi:  {"vivaldi/NativeMessagingHosts", "/etc/opt/vivaldi/native-messaging-hosts"},
	Firefox:  {".mozilla/native-messaging-hosts", "/usr/lib/mozilla/native-messaging-hosts"},
}

// darwinDirs: user paths are relative to ~/Library/Application Support.
var darwinDirs = map[Browser]unixDirs{
	Chrome:   {"Google/Chrome/NativeMessagingHosts", "/Library/Google/Chrome/NativeMessagingHosts"},
	Chromium: {"Chromium/NativeMessagingHosts", "/Library/Application Support/Chromium/NativeMessagingHosts"},
	Edge:     {"Microsoft Edge/NativeMessagingHosts", "/Library/Microsoft/Edge/NativeMessagingHosts"},
	Brave:    {"BraveSoftware/Brave-Browser/NativeMessagingHosts", "/Library/Google/Chrome/NativeMessagingHosts"},
	Vivaldi:  {"Vivaldi/NativeMessagingHosts", "/Library/Application Support/Vivaldi/NativeMessagingHosts"},
	Firefox:  {"Mozilla/NativeMessagingHosts", "/Library/Application Support/Mozilla/NativeMessagingHosts"},
}

// windowsKeys are the registry keys, under HKCU or HKLM, whose default value
// points to the manifest.
var windowsKeys = map[Browser]string{
	Chrome:   `Software\Google\Chrome\NativeMessagingHosts`,
	Chromium: `Software\Chromium\NativeMessagingHosts`,
	Edge:     `Software\Microsoft\Edge\NativeMessagingHosts`,
	Brave:    `Software\BraveSoftware\Brave-Browser\NativeMessagingHosts`,
	Vivaldi:  `Software\Vivaldi\NativeMessagingHosts`,
	Firefox:  `Software\Mozilla\NativeMessagingHosts`,
}

// Locations returns where browser b looks for the host on goos ("linux",
// "darwin" or "windows") in scope s, given the user's folders in env.
//
//   - Linux and macOS: the manifest is <folder>/com.deskbridge.host.json in
//     the browser's folder; there is no registry value.
//   - Windows: the manifest is com.deskbridge.host.<browser>.json in
//     %LOCALAPPDATA%\DeskBridge\NativeMessagingHosts (user) or in a
//     NativeMessagingHosts folder beside the binary (system), and the
//     browser's key under HKCU or HKLM holds its path.
func Locations(goos string, b Browser, s Scope, env Env) (Location, error) {
	if _, ok := windowsKeys[b]; !ok {
		return Location{}, fmt.Errorf("unknown browser %q", b)
	}
	switch goos {
	case "linux":
		return unixLocation(linuxDirs[b], linuxBase(b, env), s)
	case "darwin":
		return unixLocation(darwinDirs[b], path.Join(env.Home, "Library/Application Support"), s)
	case "windows":
		return windowsLocation(b, s, env)
	}
	return Location{}, fmt.Errorf("native messaging registration is not supported on %s", goos)
}

func linuxBase(b Browser, env Env) string {
	if b == Firefox {
		return env.Home
	}
	if env.XDGConfigHome != "" {
		return env.XDGConfigHome
	}
	return path.Join(env.Home, ".config")
}

func unixLocation(d unixDirs, base string, s Scope) (Location, error) {
	if s == System {
		return Location{Manifest: path.Join(d.system, HostName+".json")}, nil
	}
	if !strings.HasPrefix(base, "/") {
		return Location{}, fmt.Errorf("home folder %q is not absolute; set HOME", base)
	}
	return Location{Manifest: path.Join(base, d.user, HostName+".json")}, nil
}

func windowsLocation(b Browser, s Scope, env Env) (Location, error) {
	dir, root := winJoin(env.LocalAppData, "DeskBridge", "NativeMessagingHosts"), HKCU
	if s == System {
		dir, root = winJoin(env.ExeDir, "NativeMessagingHosts"), HKLM
	}
	if !isAbs(dir) {
		return Location{}, fmt.Errorf("manifest folder %q is not absolute; set LOCALAPPDATA", dir)
	}
	reg := &RegistryValue{Root: root, Key: windowsKeys[b] + `\` + HostName}
	return Location{Manifest: winJoin(dir, HostName+"."+string(b)+".json"), Registry: reg}, nil
}

// winJoin joins Windows path elements with backslashes.
func winJoin(elem ...string) string {
	parts := make([]string, 0, len(elem))
	for _, e := range elem {
		if e = strings.TrimRight(e, `\/`); e != "" {
			parts = append(parts, e)
		}
	}
	return strings.Join(parts, `\`)
}

// ManifestDirs returns the folders that hold (or would hold) this host's
// manifest for every supported browser in both scopes on this OS, as read
// from the running process's environment. The host never writes them on a
// request's behalf.
func ManifestDirs() []string {
	env := EnvFromOS()
	var dirs []string
	for _, b := range Browsers {
		for _, s := range []Scope{User, System} {
			if loc, err := Locations(runtime.GOOS, b, s, env); err == nil {
				dirs = append(dirs, filepath.Dir(loc.Manifest))
			}
		}
	}
	return dirs
}
