package install

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// check is the outcome of checking one registration.
type check struct {
	registered bool
	origins    []string // Chromium origins the manifest allows
	problems   []string // each tells what to fix
}

func (c *check) fail(format string, args ...any) {
	c.problems = append(c.problems, fmt.Sprintf(format, args...))
}

// DoctorRegistrations checks every browser's registration in both scopes,
// prints one line per finding with what to fix, and returns the Chromium
// origins the registered manifests allow and whether the registrations
// are in order: at least one, and none broken.
func (in *Installer) DoctorRegistrations(browsers []Browser) ([]string, bool) {
	registered, healthy := 0, true
	var origins []string
	for _, s := range []Scope{User, System} {
		for _, b := range browsers {
			c := in.checkRegistration(b, s)
			healthy = in.report(fmt.Sprintf("%s (%s)", b, s), c) && healthy
			if c.registered {
				registered++
				if b.Family() {
					origins = append(origins, c.origins...)
				}
			}
		}
	}
	if registered == 0 {
		fmt.Fprintln(in.Out, "FIX  no browser has the host registered: run deskbridge install --extension-id ID")
		healthy = false
	}
	slices.Sort(origins)
	return slices.Compact(origins), healthy
}

func (in *Installer) report(what string, c check) bool {
	switch {
	case len(c.problems) > 0:
		for _, p := range c.problems {
			fmt.Fprintf(in.Out, "FIX  %s: %s\n", what, p)
		}
		return false
	case c.registered:
		fmt.Fprintf(in.Out, "ok   %s\n", what)
	default:
		fmt.Fprintf(in.Out, "-    %s: not registered\n", what)
	}
	return true
}

func (in *Installer) checkRegistration(b Browser, s Scope) check {
	var c check
	loc, err := Locations(in.OS, b, s, in.Env)
	if err != nil {
		c.fail("%v", err)
		return c
	}
	manifest, viaRegistry := in.manifestPath(loc, &c)
	if manifest == "" {
		return c
	}
	data, err := in.FS.ReadFile(manifest)
	if errors.Is(err, fs.ErrNotExist) && !viaRegistry {
		return c
	}
	c.registered = true
	if err != nil {
		c.fail("cannot read manifest %s: run deskbridge install again", manifest)
		return c
	}
	in.checkManifest(&c, b, manifest, data)
	return c
}

// manifestPath returns the manifest to check: on Windows the one the
// registry value names (empty when there is none), elsewhere loc.Manifest.
func (in *Installer) manifestPath(loc Location, c *check) (string, bool) {
	if loc.Registry == nil {
		return loc.Manifest, false
	}
	if in.Registry == nil {
		return "", false
	}
	p, err := in.Registry.Default(*loc.Registry)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil || !isAbs(p) {
		c.registered = true
		c.fail("registry value %s does not hold an absolute manifest path: run deskbridge install again", loc.Registry)
		return "", false
	}
	return p, true
}

func (in *Installer) checkManifest(c *check, b Browser, manifest string, data []byte) {
	doc, err := parseManifest(data)
	if err != nil {
		c.fail("%s: %v: run deskbridge install again", manifest, err)
		return
	}
	if doc.Name != HostName || doc.Type != "stdio" {
		c.fail("%s: name must be %q and type \"stdio\": run deskbridge install again", manifest, HostName)
	}
	c.origins = checkIDs(c, b, manifest, doc)
	in.checkBinary(c, doc.Path)
	if in.Self != "" && !in.startsSelf(doc.Path, in.Self) && isAbs(doc.Path) {
		c.fail("%s starts %s, not this binary %s, so the browser runs another DeskBridge than the one checked here: run this binary's install, or that binary's doctor", manifest, doc.Path, in.Self)
	}
	in.checkNotWritable(c, manifest, "manifest")
	if in.OS != "windows" {
		in.checkDirNotWorldWritable(c, path.Dir(manifest))
	}
}

func checkIDs(c *check, b Browser, manifest string, doc manifestDoc) []string {
	ids, valid := doc.AllowedExtensions, FirefoxID
	if b.Family() {
		ids, valid = doc.AllowedOrigins, ChromeOrigin
	}
	if len(ids) == 0 {
		c.fail("%s lists no extension: run deskbridge install with %s", manifest, idFlag(b))
	}
	for _, id := range ids {
		if v, err := valid(id); err != nil || v != id {
			c.fail("%s: %q is not an exact extension id: run deskbridge install again", manifest, id)
		}
	}
	return ids
}

// samePath compares two paths as the OS does (without case on Windows).
func (in *Installer) samePath(a, b string) bool {
	if in.OS == "windows" {
		return strings.EqualFold(a, b)
	}
	return a == b
}

func (in *Installer) checkBinary(c *check, p string) {
	if !isAbs(p) {
		c.fail("host path %q is not absolute: run deskbridge install again", p)
		return
	}
	fi, err := in.FS.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		c.fail("host binary %s is missing: reinstall deskbridge, then run deskbridge install", p)
		return
	}
	if in.OS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		c.fail("host binary %s is not executable: chmod +x %s", p, p)
	}
	in.checkNotWritable(c, p, "host binary")
}

// checkNotWritable flags a file that users other than its owner may change:
// whoever can edit the manifest or the binary runs code as the browser user.
// Windows ACLs are not inspected.
func (in *Installer) checkNotWritable(c *check, p, what string) {
	if in.OS == "windows" {
		return
	}
	fi, err := in.FS.Stat(p)
	if err == nil && fi.Mode().Perm()&0o022 != 0 {
		c.fail("%s %s is writable by group or others: chmod go-w %s", what, p, p)
	}
}

func (in *Installer) checkDirNotWorldWritable(c *check, dir string) {
	fi, err := in.FS.Stat(dir)
	if err == nil && fi.Mode().Perm()&0o002 != 0 && fi.Mode()&fs.ModeSticky == 0 {
		c.fail("folder %s is writable by everyone: chmod o-w %s", dir, dir)
	}
}
