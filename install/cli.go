package install

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// NewInstaller returns an Installer for the running system writing its
// progress to out.
func NewInstaller(out io.Writer) *Installer {
	return &Installer{OS: runtime.GOOS, Env: EnvFromOS(), FS: OSFS{}, Registry: platformRegistry(), Out: out}
}

// idList is a repeatable flag whose values may also be comma-separated.
type idList []string

func (l *idList) String() string { return strings.Join(*l, ",") }

func (l *idList) Set(v string) error {
	for id := range strings.SplitSeq(v, ",") {
		if id = strings.TrimSpace(id); id != "" {
			*l = append(*l, id)
		}
	}
	return nil
}

// common holds the flags every subcommand shares.
type common struct {
	browsers string
	system   bool
	config   string
}

func (c *common) register(fs *flag.FlagSet) {
	fs.StringVar(&c.browsers, "browser", "all", "browsers, comma-separated: chrome,chromium,edge,brave,vivaldi,firefox or all")
	fs.BoolVar(&c.system, "system", false, "register for all users (needs administrator rights)")
	fs.StringVar(&c.config, "config", "", "configuration file (default $DESKBRIDGE_CONFIG, else the user configuration folder)")
}

func (c *common) scope() Scope {
	if c.system {
		return System
	}
	return User
}

// RunInstall implements "deskbridge install [flags]" and returns the exit code.
func RunInstall(args []string, stdout, stderr io.Writer) int {
	var c common
	var chromeIDs, firefoxIDs idList
	fset := newFlagSet("install", stderr)
	c.register(fset)
	fset.Var(&chromeIDs, "extension-id", "Chromium-family extension id (32 letters a-p); repeatable")
	fset.Var(&firefoxIDs, "firefox-id", "Firefox add-on id (name@example.org); repeatable")
	hostPath := fset.String("host-path", "", "absolute path of the deskbridge binary (default: this binary)")
	if fset.Parse(args) != nil {
		return 2
	}
	in := NewInstaller(stdout)
	o, err := c.options(in, *hostPath)
	if err == nil {
		o.ChromeIDs, o.FirefoxIDs = chromeIDs, firefoxIDs
		err = in.Install(o)
	}
	return exit(stderr, "install", err)
}

func (c *common) options(in *Installer, hostPath string) (Options, error) {
	browsers, err := ParseBrowsers(c.browsers)
	if err != nil {
		return Options{}, err
	}
	if hostPath == "" {
		hostPath, err = selfPath()
	}
	o := Options{Browsers: browsers, Scope: c.scope(), HostPath: hostPath}
	o.ConfigPath = ConfigPath(in.OS, c.config, os.Getenv("DESKBRIDGE_CONFIG"), in.Env)
	return o, err
}

func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find this binary: pass --host-path")
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, nil
}

// RunUninstall implements "deskbridge uninstall [flags]" and returns the
// exit code. The configuration is left in place.
func RunUninstall(args []string, stdout, stderr io.Writer) int {
	var c common
	fset := newFlagSet("uninstall", stderr)
	c.register(fset)
	if fset.Parse(args) != nil {
		return 2
	}
	browsers, err := ParseBrowsers(c.browsers)
	var self string
	if err == nil {
		self, err = selfPath()
	}
	if err == nil {
		err = NewInstaller(stdout).Uninstall(browsers, c.scope(), self)
	}
	return exit(stderr, "uninstall", err)
}

// RunDoctor implements "deskbridge doctor [flags]": it returns 0 when the
// registration and configuration are in order, 1 when something needs
// fixing (each fix is printed), 2 on bad flags.
func RunDoctor(args []string, stdout, stderr io.Writer) int {
	var c common
	fset := newFlagSet("doctor", stderr)
	c.register(fset)
	if fset.Parse(args) != nil {
		return 2
	}
	browsers, err := ParseBrowsers(c.browsers)
	if err != nil {
		return exit(stderr, "doctor", err)
	}
	in := NewInstaller(stdout)
	if !in.Doctor(browsers, ConfigPath(in.OS, c.config, os.Getenv("DESKBRIDGE_CONFIG"), in.Env)) {
		return 1
	}
	return 0
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fset := flag.NewFlagSet("deskbridge "+name, flag.ContinueOnError)
	fset.SetOutput(stderr)
	return fset
}

func exit(stderr io.Writer, cmd string, err error) int {
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge %s: %v\n", cmd, err)
		return 1
	}
	return 0
}
