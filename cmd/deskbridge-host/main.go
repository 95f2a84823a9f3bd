// Command deskbridge-host is the program a browser starts for DeskBridge
// where `deskbridge install` registers it (Linux and macOS): a small
// program that hands the browser's port (its standard input and output)
// to a warm deskbridge process, which keeps the compiled policy, the
// decision log and the path resolver between messages, so that a one-shot
// message does not pay for starting a host. It decides nothing and reads
// nothing of the messages: the warm process serves the port exactly as
// `deskbridge chrome-extension://…/` would (internal/warm says how the two
// meet; docs/warm.md why it is safe).
//
// When no warm process answers, it starts one, detached, and hands it the
// port once it is ready; when none becomes ready, or where warm processes
// are not supported, it serves the message by becoming `deskbridge`
// itself (the program beside it) with the same arguments.
//
//	deskbridge-host [--config FILE] chrome-extension://<id>/ [--parent-window=<n>]
package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/deskbridge/deskbridge/internal/warm"
)

func main() { os.Exit(run(os.Args[1:])) }

// readyWait is how long deskbridge-host waits for a warm process it
// started, or one another deskbridge-host started at the same moment,
// before it serves the message by becoming deskbridge.
const readyWait = 10 * time.Second

// run serves the port through a warm process, or hands it to deskbridge.
func run(args []string) int {
	full, err := fullHost()
	if err != nil {
		fmt.Fprintln(os.Stderr, "deskbridge-host:", err)
		return 1
	}
	config, origin := hostArgs(args)
	if origin != "" {
		conn, socket, err := connect(full, config, origin)
		if err != nil && socket != "" && startWarm(full, config, socket) {
			conn, err = warm.DialWait(socket, origin, readyWait)
		}
		if err == nil {
			return handOver(conn)
		}
	}
	return direct(full, args)
}

// fullHost is the deskbridge program beside this one.
func fullHost() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(self); err == nil {
		self = real
	}
	name := "deskbridge"
	if strings.HasSuffix(strings.ToLower(self), ".exe") {
		name += ".exe"
	}
	return filepath.Join(filepath.Dir(self), name), nil
}

// hostArgs returns the --config argument and the origin of a browser's
// start (`[--config FILE] chrome-extension://<id>/ …`); origin is "" for
// anything else, which deskbridge itself answers.
func hostArgs(args []string) (config, origin string) {
	if len(args) >= 2 && args[0] == "--config" {
		config, args = args[1], args[2:]
	} else if len(args) >= 1 && strings.HasPrefix(args[0], "--config=") {
		config, args = strings.TrimPrefix(args[0], "--config="), args[1:]
	}
	if len(args) >= 1 && strings.HasPrefix(args[0], "chrome-extension://") {
		origin = args[0]
	}
	return config, origin
}

// connect finds the warm process for full, config and this environment
// and says hello; socket is where it should be ("" when this platform or
// folder cannot have one).
func connect(full, config, origin string) (conn net.Conn, socket string, err error) {
	dir, err := warm.Dir()
	if err != nil {
		return nil, "", err
	}
	key, err := warm.Key(full, config)
	if err != nil {
		return nil, "", err
	}
	socket = warm.SocketPath(dir, key)
	conn, err = warm.Dial(socket, origin)
	return conn, socket, err
}

// handOver gives the warm process this program's standard input, output
// and error, the browser's port, and waits until it has served them; the
// exit status is the one it reports. Should this program be stopped, the
// warm process cancels the port's work as a stopped host would.
func handOver(conn net.Conn) int {
	defer conn.Close()
	status, err := warm.HandOver(conn, os.Stdin, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "deskbridge-host:", err)
	}
	return status
}
