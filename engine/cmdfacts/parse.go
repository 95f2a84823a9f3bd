// Package cmdfacts turns the untrusted command of a run_command request into
// facts for the policy: the argument vector, the program as given, the
// program resolved against fixed system folders, and every argument that may
// name a path, resolved so that a policy can confine it to a workspace.
//
// No shell is ever involved. A command line is split with shell-like quoting
// only; `;`, `&&`, `|`, newlines, `$(…)`, backticks, `<(…)`, globs and `~`
// stay plain characters of the arguments they appear in.
package cmdfacts

import (
	"strings"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/google/shlex"
)

// Limits on the size of an argument vector.
const (
	MaxArgs      = 1024
	MaxArgvBytes = 128 << 10
)

// Parse returns the argument vector of a request that gives exactly one of
// command (a command line split with shell-like quoting) or argv.
//
// It fails with INVALID_REQUEST when both or neither are given, the command
// line has an unterminated quote, the vector is empty, too large, or holds a
// NUL byte or an empty program name.
func Parse(command string, argv []string) ([]string, error) {
	out, err := split(command, argv)
	if err != nil {
		return nil, err
	}
	if err := check(out); err != nil {
		return nil, err
	}
	return out, nil
}

func split(command string, argv []string) ([]string, error) {
	switch {
	case command != "" && argv != nil:
		return nil, invalid("Give either command or argv, not both.")
	case argv != nil:
		return append([]string(nil), argv...), nil
	case command == "":
		return nil, invalid("Give the command to run as command or argv.")
	}
	out, err := shlex.Split(command)
	if err != nil {
		return nil, protocol.Wrap(protocol.InvalidRequest, err,
			"The command line could not be split; check its quotes.")
	}
	return out, nil
}

func check(argv []string) error {
	if len(argv) == 0 || argv[0] == "" {
		return invalid("The command names no program.")
	}
	if len(argv) > MaxArgs {
		return invalid("The command has too many arguments.")
	}
	size := 0
	for _, a := range argv {
		size += len(a)
		if strings.IndexByte(a, 0) >= 0 {
			return invalid("An argument holds a NUL byte; remove it.")
		}
	}
	if size > MaxArgvBytes {
		return invalid("The command is too long.")
	}
	return nil
}

func invalid(msg string) error {
	return protocol.Errorf(protocol.InvalidRequest, "%s", msg)
}
