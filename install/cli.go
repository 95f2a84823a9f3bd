package install

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/deskbridge/deskbridge/internal/cliflag"
)

// NewInstaller returns an Installer for the running system writing its
// progress to out.
func NewInstaller(out io.Writer) *Installer {
	self, _ := selfPath()
	return &Installer{OS: runtime.GOOS, Env: EnvFromOS(), FS: OSFS{}, Registry: platformRegistry(), Out: out, Self: self}
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

// common holds the flags install and uninstall share.
type common struct {
	browsers string
	system   bool
}

func (c *common) register(fs *flag.FlagSet, installing bool) {
	fs.StringVar(&c.browsers, "browser", "all", "browsers, comma-separated: chrome,chromium,edge,brave,vivaldi"+firefoxChoice(installing)+" or all")
	if installing {
		fs.BoolVar(&c.system, "system", false, "register for every user of this machine: the manifests go to the system-wide places\n"+
			"(Linux /etc/…, macOS /Library/…, Windows HKLM and a folder beside the binary); needs root\n"+
			"or administrator rights. Each user's host still reads that user's own configuration; the\n"+
			"starter configuration is written only for you")
	} else {
		fs.BoolVar(&c.system, "system", false, "remove the system-wide registration (written by install --system) instead of your own;\nneeds root or administrator rights")
	}
}

func firefoxChoice(installing bool) string {
	if installing {
		return "" // Firefox is not supported yet (docs/firefox.md)
	}
	return ",firefox"
}

func (c *common) scope() Scope {
	if c.system {
		return System
	}
	return User
}

const installUsage = `usage: deskbridge [--config FILE] install --extension-id ID [--browser LIST] [--system] [--host-path PATH] [--direct]

Register this binary as the native messaging host com.deskbridge.host with
the Chromium-family browsers (Chrome, Chromium, Edge, Brave, Vivaldi) for
the extension ID, and write a starter configuration (no workspaces; the
extension's origin allowed) when none exists, or add the extension to the
existing one's allowed_origins. Firefox is not supported yet
(docs/firefox.md). Then run deskbridge doctor. With --system, install
warns when other users could not run the binary.

When deskbridge-host (deskbridge-host.exe on Windows) sits beside this
binary, that is what is registered: it hands each message to a warm deskbridge process
(docs/warm.md). --direct registers this binary itself, which then starts
for every message.
`

const uninstallUsage = `usage: deskbridge uninstall [--browser LIST] [--system]

Remove DeskBridge's host manifests (and, on Windows, registry values),
and the manifest folders install created, when they are empty. A
manifest there that is not DeskBridge's is left, and said so. Only what
was removed is reported. The configuration and the decision log are kept.
`

// RunInstall implements "deskbridge install [flags]" and returns the exit code.
func RunInstall(args []string, stdout, stderr io.Writer) int {
	var c common
	var chromeIDs idList
	cmd := cliflag.New("install", installUsage, stdout, stderr)
	fset := cmd.Flags
	c.register(fset, true)
	fset.Var(&chromeIDs, "extension-id", "Chromium-family extension `ID` (32 letters a-p); repeatable")
	hostPath := fset.String("host-path", "", "absolute `PATH` of the program the browser starts (default: deskbridge-host beside this binary, else this binary)")
	direct := fset.Bool("direct", false, "register this binary, not deskbridge-host: no warm process")
	configPath := fset.String("config", "", "configuration `FILE` to write the starter configuration to (default $DESKBRIDGE_CONFIG, else the user configuration folder)")
	if code, ok := cmd.Parse(args); !ok {
		return code
	}
	if code, ok := cmd.Args(0, 0); !ok {
		return code
	}
	if len(chromeIDs) == 0 {
		return cmd.Fail("--extension-id ID is required: the id chrome://extensions shows for the extension")
	}
	in := NewInstaller(stdout)
	o, err := c.options(in, *hostPath, *configPath, !*direct)
	if err == nil && slices.Contains(o.Browsers, Firefox) {
		err = errors.New("Firefox is not supported yet (docs/firefox.md): name Chromium-family browsers with --browser")
	}
	if err == nil {
		o.ChromeIDs = chromeIDs
		err = in.Install(o)
	}
	return exit(stderr, "install", err)
}

// options are the install's options; warm registers deskbridge-host
// beside this binary when hostPath is not given and it is there.
func (c *common) options(in *Installer, hostPath, configPath string, warm bool) (Options, error) {
	browsers, err := ParseBrowsers(c.browsers)
	if err != nil {
		return Options{}, err
	}
	if c.browsers == "all" {
		browsers = slices.DeleteFunc(slices.Clone(browsers), func(b Browser) bool { return !b.Family() })
	}
	if hostPath == "" {
		hostPath, err = selfPath()
		hostPath = registered(hostPath, warm)
	}
	o := Options{Browsers: browsers, Scope: c.scope(), HostPath: hostPath}
	o.ConfigPath = ConfigPath(in.OS, configPath, os.Getenv("DESKBRIDGE_CONFIG"), in.Env)
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
	cmd := cliflag.New("uninstall", uninstallUsage, stdout, stderr)
	c.register(cmd.Flags, false)
	if code, ok := cmd.Parse(args); !ok {
		return code
	}
	if code, ok := cmd.Args(0, 0); !ok {
		return code
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

func exit(stderr io.Writer, cmd string, err error) int {
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge %s: %v\n", cmd, err)
		return 1
	}
	return 0
}
