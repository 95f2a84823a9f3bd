package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// Installer registers and unregisters the host on one OS. The zero value is
// not usable; [NewInstaller] returns one for the running system.
type Installer struct {
	OS       string   // "linux", "darwin" or "windows"
	Env      Env      // the user's folders
	FS       FS       // manifest and configuration files
	Registry Registry // Windows only; nil elsewhere
	Out      io.Writer
	// Self is the binary Doctor expects every manifest to start (this
	// one, for the command line); empty: not compared.
	Self string
}

// Options says what to register.
type Options struct {
	Browsers   []Browser
	Scope      Scope
	HostPath   string   // absolute path of the deskbridge binary
	ChromeIDs  []string // Chromium-family extension ids or origins
	FirefoxIDs []string // Firefox add-on ids
	ConfigPath string   // configuration file; empty means the default
}

// Install writes the manifest (and registry value) for every browser in o
// that has ids, then a starter configuration when none exists.
func (in *Installer) Install(o Options) error {
	done := 0
	for _, b := range o.Browsers {
		ids := o.ChromeIDs
		if !b.Family() {
			ids = o.FirefoxIDs
		}
		if len(ids) == 0 {
			fmt.Fprintf(in.Out, "%s: skipped (no %s given)\n", b, idFlag(b))
			continue
		}
		if err := in.register(b, o.Scope, o.HostPath, ids); err != nil {
			return fmt.Errorf("%s: %w", b, err)
		}
		done++
	}
	if done == 0 {
		return errors.New("nothing registered: pass --extension-id ID")
	}
	if o.Scope == System && in.OS != "windows" {
		in.warnPrivate(o.HostPath)
	}
	return in.starterConfig(o)
}

// warnPrivate warns when a system-wide registration starts a binary other
// users cannot run: the binary is not executable by them, or a folder
// above it does not let them through (say a home folder of mode 0700).
// Their browsers would then fail to start the host.
func (in *Installer) warnPrivate(hostPath string) {
	if fi, err := in.FS.Stat(hostPath); err == nil && fi.Mode().Perm()&0o001 == 0 {
		fmt.Fprintf(in.Out, "warn %s is not executable by other users (mode %04o), so their browsers cannot start it: chmod o+rx %s, or install a copy in a folder such as /usr/local/bin\n", hostPath, fi.Mode().Perm(), hostPath)
	}
	for dir := path.Dir(hostPath); ; dir = path.Dir(dir) {
		if fi, err := in.FS.Stat(dir); err == nil && fi.Mode().Perm()&0o001 == 0 {
			fmt.Fprintf(in.Out, "warn %s is inside %s, which other users cannot enter (mode %04o), so their browsers cannot start it: install a copy in a folder such as /usr/local/bin, and register that with --host-path\n", hostPath, dir, fi.Mode().Perm())
			return
		}
		if dir == path.Dir(dir) {
			return
		}
	}
}

func idFlag(b Browser) string {
	if b.Family() {
		return "--extension-id"
	}
	return "--firefox-id"
}

func (in *Installer) register(b Browser, s Scope, hostPath string, ids []string) error {
	loc, err := Locations(in.OS, b, s, in.Env)
	if err != nil {
		return err
	}
	data, err := Manifest(b, hostPath, ids)
	if err != nil {
		return err
	}
	dir, _ := in.splitDir(loc.Manifest)
	created := in.missingFolders(dir)
	if err := in.FS.WriteFile(loc.Manifest, data, 0o644); err != nil {
		return err
	}
	if err := in.recordCreated(dir, created); err != nil {
		return err
	}
	if err := in.setRegistry(loc); err != nil {
		return err
	}
	fmt.Fprintf(in.Out, "%s: registered %s%s\n", b, loc.Manifest, regNote(loc))
	return nil
}

func (in *Installer) setRegistry(loc Location) error {
	if loc.Registry == nil {
		return nil
	}
	if in.Registry == nil {
		return errors.New("no registry access on this system")
	}
	return in.Registry.SetDefault(*loc.Registry, loc.Manifest)
}

func regNote(loc Location) string {
	if loc.Registry == nil {
		return ""
	}
	return " (registry " + loc.Registry.String() + ")"
}

// Uninstall removes the manifest and registry value of every browser in
// browsers for scope s, when they are DeskBridge's: a manifest only when
// its name is HostName and it starts hostPath or another DeskBridge binary
// (a file named deskbridge, deskbridge.exe or deskbridge-host), and a registry value only
// when it names the manifest's place. Anything else found there is left,
// and Out says what and why; Out names only what was removed. The
// configuration is kept.
func (in *Installer) Uninstall(browsers []Browser, s Scope, hostPath string) error {
	var errs []error
	removed := 0
	for _, b := range browsers {
		did, err := in.unregister(b, s, hostPath)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", b, err))
		}
		if did {
			removed++
		}
	}
	if removed == 0 && len(errs) == 0 {
		fmt.Fprintf(in.Out, "nothing to uninstall: no DeskBridge registration (%s) was found\n", s)
	}
	return errors.Join(errs...)
}

// unregister removes b's registration in scope s when it is DeskBridge's,
// and reports whether it removed anything.
func (in *Installer) unregister(b Browser, s Scope, hostPath string) (bool, error) {
	loc, err := Locations(in.OS, b, s, in.Env)
	if err != nil {
		return false, err
	}
	data, err := in.FS.ReadFile(loc.Manifest)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	found := err == nil
	if found {
		if why := in.notOurs(data, hostPath); why != "" {
			fmt.Fprintf(in.Out, "%s: left %s: %s\n", b, loc.Manifest, why)
			return false, nil
		}
	}
	regRemoved, err := in.deleteRegistry(loc)
	if err != nil {
		return false, err
	}
	switch {
	case found:
		if err := in.FS.Remove(loc.Manifest); err != nil {
			return false, err
		}
		fmt.Fprintf(in.Out, "%s: removed %s%s\n", b, loc.Manifest, regNote(loc))
		dir, _ := in.splitDir(loc.Manifest)
		return true, in.removeCreated(dir)
	case regRemoved:
		fmt.Fprintf(in.Out, "%s: removed registry %s (its manifest %s was gone)\n", b, loc.Registry, loc.Manifest)
		return true, nil
	}
	return false, nil
}

// notOurs says why the manifest data is not DeskBridge's to remove, or
// returns "" when it is.
func (in *Installer) notOurs(data []byte, hostPath string) string {
	var doc manifestDoc
	switch {
	case json.Unmarshal(data, &doc) != nil:
		return "it is not a JSON host manifest"
	case doc.Name != HostName:
		return fmt.Sprintf("its name is %q, not %q", doc.Name, HostName)
	case !in.isDeskBridge(doc.Path, hostPath):
		return fmt.Sprintf("it starts %q, which is not a DeskBridge binary", doc.Path)
	}
	return ""
}

// isDeskBridge reports whether p is hostPath or a DeskBridge binary
// installed elsewhere.
func (in *Installer) isDeskBridge(p, hostPath string) bool {
	base := path.Base(strings.ReplaceAll(p, `\`, "/"))
	if in.OS == "windows" {
		return strings.EqualFold(p, hostPath) || strings.EqualFold(base, "deskbridge.exe")
	}
	return p == hostPath || base == "deskbridge" || base == WarmHostName
}

// deleteRegistry deletes loc's registry value when it names loc's
// manifest, and reports whether it did.
func (in *Installer) deleteRegistry(loc Location) (bool, error) {
	if loc.Registry == nil || in.Registry == nil {
		return false, nil
	}
	v, err := in.Registry.Default(*loc.Registry)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !strings.EqualFold(v, loc.Manifest) {
		fmt.Fprintf(in.Out, "left registry %s: it names %s, not %s\n", loc.Registry, v, loc.Manifest)
		return false, nil
	}
	return true, in.Registry.Delete(*loc.Registry)
}

// ConfigPath returns the configuration file the host reads: explicit if set,
// else $DESKBRIDGE_CONFIG (passed as env), else deskbridge/config.json in
// the OS user-configuration folder.
func ConfigPath(goos, explicit, envValue string, env Env) string {
	switch {
	case explicit != "":
		return explicit
	case envValue != "":
		return envValue
	case goos == "windows":
		return winJoin(env.ConfigDir, "deskbridge", "config.json")
	}
	return path.Join(env.ConfigDir, "deskbridge", "config.json")
}

func (in *Installer) starterConfig(o Options) error {
	p := o.ConfigPath
	data, err := StarterConfig(o.ChromeIDs)
	if err != nil {
		return err
	}
	err = in.FS.WriteNew(p, data, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return in.allowOrigins(p, o.ChromeIDs)
	}
	if err != nil {
		return fmt.Errorf("configuration: %w", err)
	}
	fmt.Fprintf(in.Out, "configuration: wrote starter %s (add your workspaces)\n", p)
	return nil
}

// allowOrigins adds the extensions of chromeIDs to the allowed_origins of
// the existing configuration at p when it lacks them, so that the host
// serves the extension the manifests now allow. The file is replaced
// atomically with its text otherwise unchanged (withOrigins); one it
// cannot read or edit is left, and the exact fix is printed.
func (in *Installer) allowOrigins(p string, chromeIDs []string) error {
	origins, err := mapIDs(chromeIDs, ChromeOrigin)
	if err != nil {
		return err
	}
	doc, err := in.FS.ReadFile(p)
	var edited []byte
	var added []string
	if err == nil {
		edited, added, err = withOrigins(doc, origins)
	}
	if err != nil {
		fmt.Fprintln(in.Out, addOriginsFix(p, origins, err))
		return fmt.Errorf("configuration %s does not allow the extension", p)
	}
	if len(added) == 0 {
		fmt.Fprintf(in.Out, "configuration: kept %s (it allows the extension)\n", p)
		return nil
	}
	target := p // a link to the configuration stays a link
	if real, err := filepath.EvalSymlinks(p); err == nil {
		target = real
	}
	if err := in.FS.WriteFile(target, edited, in.modeOf(target)); err != nil {
		fmt.Fprintln(in.Out, addOriginsFix(p, added, err))
		return fmt.Errorf("configuration: %w", err)
	}
	fmt.Fprintf(in.Out, "configuration: added %s to allowed_origins in %s\n", quoteAll(added), p)
	return nil
}

// modeOf is the permission bits of the file p, 0600 when it cannot tell.
func (in *Installer) modeOf(p string) fs.FileMode {
	if fi, err := in.FS.Stat(p); err == nil {
		return fi.Mode().Perm()
	}
	return 0o600
}
