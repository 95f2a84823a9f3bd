package install

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// linuxInstaller returns an Installer on the real file system with the
// home folder in a temporary directory, and a fake host binary.
func linuxInstaller(t *testing.T) (*Installer, string, *bytes.Buffer) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("Linux layout test: it lays out Unix paths in a real folder, and a Windows folder is no Unix path")
	}
	home := t.TempDir()
	bin := filepath.Join(home, "bin", "deskbridge")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	env := Env{Home: home, ConfigDir: filepath.Join(home, ".config")}
	return &Installer{OS: "linux", Env: env, FS: OSFS{}, Out: &out}, bin, &out
}

func linuxOptions(in *Installer, bin string) Options {
	return Options{
		Browsers: Browsers, Scope: User, HostPath: bin,
		ChromeIDs: []string{idA}, FirefoxIDs: []string{"deskbridge@example.org"},
		ConfigPath: ConfigPath("linux", "", "", in.Env),
	}
}

func TestInstallLinux(t *testing.T) {
	in, bin, out := linuxInstaller(t)
	o := linuxOptions(in, bin)
	if err := in.Install(o); err != nil {
		t.Fatal(err)
	}
	for _, b := range Browsers {
		loc, _ := Locations("linux", b, User, in.Env)
		data, err := os.ReadFile(loc.Manifest)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		want, _ := Manifest(b, bin, map[bool][]string{true: o.ChromeIDs, false: o.FirefoxIDs}[b.Family()])
		if !bytes.Equal(data, want) {
			t.Errorf("%s manifest = %s, want %s", b, data, want)
		}
	}
	checkStarterConfig(t, o.ConfigPath)
	if !doctorOK(in, Browsers) {
		t.Errorf("doctor found problems after install:\n%s", out)
	}
}

func checkStarterConfig(t *testing.T, p string) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("config mode = %v, want 0600", fi.Mode().Perm())
	}
	var cfg starter
	data, _ := os.ReadFile(p)
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.AllowedOrigins) != 1 || cfg.AllowedOrigins[0] != "chrome-extension://"+idA+"/" || len(cfg.Workspaces) != 0 {
		t.Errorf("starter config = %s", data)
	}
}

func TestInstallKeepsExistingConfig(t *testing.T) {
	in, bin, _ := linuxInstaller(t)
	o := linuxOptions(in, bin)
	mustWrite(t, o.ConfigPath, `{"workspaces":[{"name":"Mine","path":"/w"}]}`, 0o600)
	if err := in.Install(o); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(o.ConfigPath); !strings.Contains(string(data), "Mine") {
		t.Errorf("install overwrote the configuration: %s", data)
	}
}

func TestInstallNeedsAnID(t *testing.T) {
	in, bin, _ := linuxInstaller(t)
	o := linuxOptions(in, bin)
	o.ChromeIDs, o.FirefoxIDs = nil, nil
	if err := in.Install(o); err == nil {
		t.Error("install without ids succeeded")
	}
}

func TestUninstallLinux(t *testing.T) {
	in, bin, out := linuxInstaller(t)
	o := linuxOptions(in, bin)
	if err := in.Install(o); err != nil {
		t.Fatal(err)
	}
	if err := in.Uninstall(Browsers, User, bin); err != nil {
		t.Fatal(err)
	}
	for _, b := range Browsers {
		loc, _ := Locations("linux", b, User, in.Env)
		if _, err := os.Stat(loc.Manifest); !os.IsNotExist(err) {
			t.Errorf("%s manifest still there: %v", b, err)
		}
	}
	if _, err := os.Stat(o.ConfigPath); err != nil {
		t.Errorf("uninstall removed the configuration: %v", err)
	}
	if doctorOK(in, Browsers) {
		t.Errorf("doctor is happy with nothing registered:\n%s", out)
	}
}

// TestDoctorFindsProblems breaks one thing at a time after a good install;
// each case fails if doctor stops checking it.
func TestDoctorFindsProblems(t *testing.T) {
	cases := []struct {
		name    string
		breakIt func(t *testing.T, in *Installer, bin, cfg string)
		want    string
	}{
		{"manifest writable by others", func(t *testing.T, in *Installer, _, _ string) {
			chmod(t, chromeManifest(in), 0o666)
		}, "chmod go-w"},
		{"binary writable by group", func(t *testing.T, _ *Installer, bin, _ string) {
			chmod(t, bin, 0o775)
		}, "host binary"},
		{"binary not executable", func(t *testing.T, _ *Installer, bin, _ string) {
			chmod(t, bin, 0o644)
		}, "chmod +x"},
		{"binary missing", func(t *testing.T, _ *Installer, bin, _ string) {
			os.Remove(bin)
		}, "is missing"},
		{"manifest not JSON", func(t *testing.T, in *Installer, _, _ string) {
			mustWrite(t, chromeManifest(in), "{", 0o644)
		}, "not valid JSON"},
		{"manifest with wildcard", func(t *testing.T, in *Installer, bin, _ string) {
			mustWrite(t, chromeManifest(in), `{"name":"com.deskbridge.host","type":"stdio","path":"`+bin+`","allowed_origins":["chrome-extension://*/"]}`, 0o644)
		}, "not an exact extension id"},
		{"manifest folder world-writable", func(t *testing.T, in *Installer, _, _ string) {
			chmod(t, filepath.Dir(chromeManifest(in)), 0o777)
		}, "chmod o-w"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, bin, out := linuxInstaller(t)
			o := linuxOptions(in, bin)
			if err := in.Install(o); err != nil {
				t.Fatal(err)
			}
			c.breakIt(t, in, bin, o.ConfigPath)
			out.Reset()
			if doctorOK(in, Browsers) {
				t.Fatalf("doctor is happy:\n%s", out)
			}
			if !strings.Contains(out.String(), c.want) {
				t.Errorf("doctor output lacks %q:\n%s", c.want, out)
			}
		})
	}
}

func chromeManifest(in *Installer) string {
	loc, _ := Locations(in.OS, Chrome, User, in.Env)
	return loc.Manifest
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, p, data string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), mode); err != nil {
		t.Fatal(err)
	}
}

// TestWindowsRegistryLayout installs, checks and uninstalls the Windows
// layout through the fake file system and registry.
func TestWindowsRegistryLayout(t *testing.T) {
	const bin = `C:\Program Files\DeskBridge\deskbridge.exe`
	for _, scope := range []Scope{User, System} {
		t.Run(scope.String(), func(t *testing.T) {
			files, reg := memFS{bin: {[]byte("MZ"), 0o755}}, memRegistry{}
			var out bytes.Buffer
			in := &Installer{OS: "windows", Env: testEnv, FS: files, Registry: reg, Out: &out}
			cfg := ConfigPath("windows", `C:\Users\ana\AppData\Roaming\deskbridge\config.json`, "", in.Env)
			o := Options{Browsers: Browsers, Scope: scope, HostPath: bin, ChromeIDs: []string{idA}, FirefoxIDs: []string{"d@example.org"}, ConfigPath: cfg}
			if err := in.Install(o); err != nil {
				t.Fatal(err)
			}
			checkRegistry(t, in, reg, scope)
			if !doctorOK(in, Browsers) {
				t.Errorf("doctor found problems:\n%s", out.String())
			}
			if err := in.Uninstall(Browsers, scope, bin); err != nil || len(reg) != 0 {
				t.Errorf("after uninstall: registry %v, err %v", reg, err)
			}
		})
	}
}

func checkRegistry(t *testing.T, in *Installer, reg memRegistry, scope Scope) {
	t.Helper()
	if len(reg) != len(Browsers) {
		t.Errorf("registry has %d values, want %d: %v", len(reg), len(Browsers), reg)
	}
	for _, b := range Browsers {
		loc, _ := Locations("windows", b, scope, in.Env)
		if got := reg[loc.Registry.String()]; got != loc.Manifest {
			t.Errorf("%s: registry value = %q, want %q", b, got, loc.Manifest)
		}
	}
}

func TestWindowsDoctorRegistryPointsNowhere(t *testing.T) {
	var out bytes.Buffer
	reg := memRegistry{`HKCU\Software\Google\Chrome\NativeMessagingHosts\com.deskbridge.host`: `C:\gone.json`}
	in := &Installer{OS: "windows", Env: testEnv, FS: memFS{}, Registry: reg, Out: &out}
	if doctorOK(in, []Browser{Chrome}) || !strings.Contains(out.String(), "cannot read manifest") {
		t.Errorf("doctor missed a dangling registry value:\n%s", out.String())
	}
}

// TestUninstallLeavesAnotherRegistration: on Windows, a registry value
// that names another program's manifest is left, and so is a manifest
// that starts another program.
func TestUninstallLeavesAnotherRegistration(t *testing.T) {
	const bin = `C:\Program Files\DeskBridge\deskbridge.exe`
	loc, _ := Locations("windows", Chrome, User, testEnv)
	other := `C:\Other\host.json`
	files := memFS{loc.Manifest: {[]byte(`{"name":"com.deskbridge.host","path":"C:\\Other\\host.exe","type":"stdio"}`), 0o644}}
	reg := memRegistry{loc.Registry.String(): other}
	var out bytes.Buffer
	in := &Installer{OS: "windows", Env: testEnv, FS: files, Registry: reg, Out: &out}
	if err := in.Uninstall([]Browser{Chrome}, User, bin); err != nil {
		t.Fatal(err)
	}
	if reg[loc.Registry.String()] != other {
		t.Errorf("the registry value naming %s was changed: %v", other, reg)
	}
	if _, ok := files[loc.Manifest]; !ok {
		t.Errorf("a manifest that starts another program was removed")
	}
	delete(files, loc.Manifest)
	if err := in.Uninstall([]Browser{Chrome}, User, bin); err != nil {
		t.Fatal(err)
	}
	if reg[loc.Registry.String()] != other || strings.Contains(out.String(), "removed") {
		t.Errorf("registry %v after uninstall; it said:\n%s", reg, &out)
	}
}

// doctorOK reports whether Doctor finds the registrations in order (the
// configuration is checked by deskbridge doctor in cmd/deskbridge, as the
// host loads it).
func doctorOK(in *Installer, browsers []Browser) bool {
	_, ok := in.DoctorRegistrations(browsers)
	return ok
}
