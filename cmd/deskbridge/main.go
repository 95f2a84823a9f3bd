// Command deskbridge is the DeskBridge Chrome Native Messaging host and its
// tools.
//
// Chrome starts it as `deskbridge chrome-extension://<id>/` (on Windows a
// --parent-window=<n> argument may follow); it then serves framed requests
// on stdin and stdout. The other forms are for people; --config, where it
// applies, comes before the command:
//
//	deskbridge [--config FILE] call ACTION [JSON]   one request, printed
//	deskbridge policy check|test|eval|input …       write and test policies
//	deskbridge log verify --log FILE                check the decision log
//	deskbridge replay --log FILE [--policy P]       re-evaluate logged decisions
//	deskbridge [--config FILE] fleet [--once]       fetch the policy bundle, ship the log
//	deskbridge schema                               argument JSON Schemas
//	deskbridge install | uninstall | doctor         browser registration
//	deskbridge version
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/deskbridge/deskbridge/decisionlog/logcmd"
	"github.com/deskbridge/deskbridge/engine"
	"github.com/deskbridge/deskbridge/install"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
	"github.com/deskbridge/deskbridge/sandbox/proc"
)

func main() {
	proc.MaybeRunTrampoline() // a re-executed sandbox trampoline never returns
	desktop.MaybeRunOwner()   // nor does a detached clipboard owner
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches on the first argument and returns the exit code.
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
		fmt.Fprintf(stderr, "deskbridge: started by Firefox for add-on %q; Firefox is not supported yet (see extension/README.md)\n", rest[1])
		return 1
	case cmd == "call":
		return call(config, rest[1:], stdout, stderr)
	case cmd == "policy":
		return policyCommand(config, rest[1:], stdout, stderr)
	case cmd == "replay":
		return replayCommand(rest[1:], stdout, stderr)
	case cmd == "log":
		return logcmd.Run(rest[1:], stdout, stderr)
	case cmd == "fleet":
		return fleetCommand(config, rest[1:], stderr)
	case cmd == "schema":
		return schemaCommand(rest[1:], stdout, stderr)
	case cmd == "install":
		return install.RunInstall(rest[1:], stdout, stderr)
	case cmd == "uninstall":
		return install.RunUninstall(rest[1:], stdout, stderr)
	case cmd == "doctor":
		return install.RunDoctor(rest[1:], stdout, stderr)
	case cmd == "version" || cmd == "--version":
		fmt.Fprintln(stdout, "deskbridge", engine.Version)
		return 0
	case cmd == "help" || cmd == "--help" || cmd == "-h":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "deskbridge: unknown command %q\n%s", rest[0], usage)
	return 2
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

const usage = `usage:
  deskbridge [--config FILE] chrome-extension://<id>/   serve Chrome (started by the browser)
  deskbridge [--config FILE] call ACTION [JSON]          run one request and print the response
                                                         (no config: the current folder is the workspace)
  deskbridge policy check [DIR_OR_BUNDLE]                compile the policy; errors as file:line:column
  deskbridge policy test [DIR_OR_BUNDLE] [-v]            run the policy tests (default: the embedded policy)
  deskbridge [--config FILE] policy eval --input FILE [DIR_OR_BUNDLE]
                                                         decide one input document; list the deny rules that fired
  deskbridge [--config FILE] policy input [--origin O] [--logged] ACTION [JSON]
                                                         print the input document the host would build
                                                         (--logged: as the decision log records it, masked)
  deskbridge log verify --log FILE                       check that the decision log is intact
  deskbridge replay --log FILE [--policy DIR_OR_BUNDLE] [--json] [--html FILE]
                                                         re-evaluate every logged decision; exit 1 if any differs
  deskbridge [--config FILE] fleet [--once]              keep policy.bundle current from the bundle server and
                                                         ship the decision log to the collector (docs/fleet.md)
  deskbridge schema                                      print the actions' argument JSON Schemas
  deskbridge install --extension-id ID [--system]        register the host with the browsers
  deskbridge uninstall | doctor                          remove / check the registration
  deskbridge version
`
