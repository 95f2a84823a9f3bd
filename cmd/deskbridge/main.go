// Command deskbridge is the DeskBridge Chrome Native Messaging host and its
// tools.
//
// Chrome starts it as `deskbridge chrome-extension://<id>/` (on Windows a
// --parent-window=<n> argument may follow); it then serves framed requests
// on stdin and stdout. The other forms are for people; --config, where it
// applies, comes before the command:
//
//	deskbridge [--config FILE] call ACTION [JSON]   one request, printed
//	deskbridge policy check|test|eval|input|data …  write and test policies
//	deskbridge log verify|export|query --log FILE   check, export or search the decision log
//	deskbridge replay --log FILE [--policy P]       re-evaluate logged decisions
//	deskbridge [--config FILE] fleet [--once]       fetch the policy bundle, ship the log
//	deskbridge schema                               argument JSON Schemas
//	deskbridge install | uninstall                  browser registration
//	deskbridge [--config FILE] doctor               every problem the host would refuse on
//	deskbridge [--config FILE] panel [--open]       a one-time link to the control panel
//	deskbridge [--config FILE] status [--stop]      list (or stop) the background processes
//	deskbridge version
//
// Every command answers --help; the usage is in each command's file.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
	"github.com/deskbridge/deskbridge/sandbox/docconv"
	"github.com/deskbridge/deskbridge/sandbox/proc"
	"github.com/deskbridge/deskbridge/sandbox/worker"
)

func main() {
	proc.MaybeRunTrampoline()   // a re-executed sandbox trampoline never returns
	docconv.MaybeRunConverter() // nor does the document converter child
	worker.MaybeRunWorker()     // nor does an image worker child
	desktop.MaybeRunOwner()     // nor does a detached clipboard owner
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches on the first argument and returns the exit code: every
// subcommand answers -h/--help with its usage and 0, and a command line it
// cannot use with one line on stderr and 2 (internal/cliflag).
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	config, rest := configFlag(args)
	if len(rest) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch cmd := rest[0]; {
	case strings.HasPrefix(cmd, "chrome-extension://"):
		return serveHost(config, cmd, stdin, stdout, stderr)
	case firefoxLaunch(rest):
		fmt.Fprintf(stderr, "deskbridge: started by Firefox for add-on %q; Firefox is not supported yet (see docs/firefox.md)\n", rest[1])
		return 1
	case cliflag.IsHelp(cmd):
		if len(rest) > 1 && !cliflag.IsHelp(rest[1]) { // deskbridge help CMD
			return run(append(append([]string{}, rest[1:2]...), "--help"), stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	case cmd == "--version":
		return versionCommand(nil, stdout, stderr)
	}
	if c, ok := commands[rest[0]]; ok {
		return c(config, rest[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "deskbridge: unknown command %q (see deskbridge --help)\n", rest[0])
	return 2
}

// command runs one subcommand with the arguments after its name.
type command func(config string, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// commands are deskbridge's subcommands, by name.
var commands = map[string]command{
	"call":   func(cfg string, a []string, _ io.Reader, o, e io.Writer) int { return call(cfg, a, o, e) },
	"policy": func(cfg string, a []string, _ io.Reader, o, e io.Writer) int { return policyCommand(cfg, a, o, e) },
	"replay": func(_ string, a []string, _ io.Reader, o, e io.Writer) int { return replayCommand(a, o, e) },
	"log":    func(_ string, a []string, _ io.Reader, o, e io.Writer) int { return logCommand(a, o, e) },
	"fleet":  func(cfg string, a []string, _ io.Reader, o, e io.Writer) int { return fleetCommand(cfg, a, o, e) },
	"schema": func(_ string, a []string, _ io.Reader, o, e io.Writer) int { return schemaCommand(a, o, e) },
	"install": func(cfg string, a []string, _ io.Reader, o, e io.Writer) int {
		return install.RunInstall(withConfig(cfg, a), o, e)
	},
	"uninstall": func(_ string, a []string, _ io.Reader, o, e io.Writer) int { return install.RunUninstall(a, o, e) },
	"doctor":    func(cfg string, a []string, _ io.Reader, o, e io.Writer) int { return doctorCommand(cfg, a, o, e) },
	"panel":     func(cfg string, a []string, _ io.Reader, o, e io.Writer) int { return panelCommand(cfg, a, o, e) },
	"status":    func(cfg string, a []string, _ io.Reader, o, e io.Writer) int { return statusCommand(cfg, a, o, e) },
	"version":   func(_ string, a []string, _ io.Reader, o, e io.Writer) int { return versionCommand(a, o, e) },
	// The detached servers of open_deskbridge and preview_web, started by
	// the host itself (engine.Options.Self), not by a person.
	"panel-serve":   func(_ string, a []string, _ io.Reader, o, e io.Writer) int { return panelServe(a, o, e) },
	"preview-serve": func(_ string, a []string, _ io.Reader, o, e io.Writer) int { return previewServe(a, o, e) },
	// The warm process deskbridge-host starts and hands the browser's
	// ports to (warm.go).
	"warm-serve": func(cfg string, a []string, _ io.Reader, o, e io.Writer) int { return warmServe(cfg, a, o, e) },
}

// withConfig passes a leading --config on to a subcommand that takes
// --config itself.
func withConfig(config string, args []string) []string {
	if config == "" {
		return args
	}
	return append([]string{"--config", config}, args...)
}

func versionCommand(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("version", "usage: deskbridge version\n\nPrint DeskBridge's version.\n", stdout, stderr)
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 0); !ok {
		return code
	}
	fmt.Fprintln(stdout, "deskbridge", engine.Version)
	return 0
}

// firefoxLaunch reports whether args are how Firefox starts a host:
// the path of the host manifest, then the add-on id.
func firefoxLaunch(args []string) bool {
	return len(args) == 2 && strings.HasSuffix(strings.ToLower(args[0]), ".json")
}

// configFlag takes a leading --config FILE (or --config=FILE) off args.
func configFlag(args []string) (string, []string) {
	if len(args) >= 2 && args[0] == "--config" {
		return args[1], args[2:]
	}
	if len(args) >= 1 {
		if v, ok := strings.CutPrefix(args[0], "--config="); ok {
			return v, args[1:]
		}
	}
	return "", args
}

const usage = `usage: deskbridge [--config FILE] COMMAND [ARGUMENTS]

commands:
  chrome-extension://<id>/        serve Chrome (the browser starts this form)
  call ACTION [JSON]              run one request and print the response
  policy check|test|eval|input|data
                                  compile, test, explain and inspect policies, and
                                  show the data they read
  log verify|export|query         check the decision log; copy it with the policies it
                                  names; print or count the decisions that match filters
  replay --log FILE               re-evaluate every logged decision; exit 1 if any differs
  fleet [--once]                  keep policy.bundle current; ship the decision log (docs/fleet.md)
  schema [--markdown]             the actions' argument JSON Schemas
  install --extension-id ID       register the host with the browsers
  uninstall                       remove the registration
  doctor                          find every problem that stops the host, and say how to fix it
  panel [--open]                  print (or open) a one-time link to the control panel
  status [--stop]                 list (or stop) the processes left running in the background
  version                         print the version
  help [COMMAND]                  this text, or a command's usage

Run deskbridge COMMAND --help for a command's usage and flags.
--config FILE (or DESKBRIDGE_CONFIG) names the configuration; without it the
host reads deskbridge/config.json in the user configuration folder, and call
uses the current folder as its only workspace (docs/configuration.md).
`
