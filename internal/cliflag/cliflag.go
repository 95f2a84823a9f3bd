// Package cliflag is the one way every deskbridge subcommand reads its
// flags: -h, -help and --help print the subcommand's usage on stdout and
// exit 0; an unknown flag, a missing value or a stray argument prints one
// line on stderr, with the hint to run --help, and exits 2.
//
// It is the standard library's flag package with these conventions, so
// that no subcommand parses flags by hand and start-up pays for no
// command-line library.
package cliflag

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
)

// ExitUsage is the exit code of a command line that cannot be used.
const ExitUsage = 2

// Command is one subcommand's flag set and usage.
type Command struct {
	// Name is the command as typed after "deskbridge", e.g. "policy check".
	Name string
	// Usage is the synopsis and description printed by --help, before the
	// flags.
	Usage string
	// Flags are the command's flags; New makes an empty set.
	Flags *flag.FlagSet
	// Pos are the positional arguments Parse left, in order. Flags may
	// stand before, between and after them; after "--" everything is
	// positional.
	Pos []string

	stdout, stderr io.Writer
}

// New returns a Command writing help to stdout and errors to stderr.
func New(name, usage string, stdout, stderr io.Writer) *Command {
	fs := flag.NewFlagSet("deskbridge "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // Parse's messages are printed by Parse, in one line
	fs.Usage = func() {}
	return &Command{Name: name, Usage: usage, Flags: fs, stdout: stdout, stderr: stderr}
}

// Parse parses args. It returns ok when the command should run; otherwise
// code is its exit code: 0 after --help, ExitUsage after an error, which
// it has printed.
func (c *Command) Parse(args []string) (code int, ok bool) {
	for {
		err := c.Flags.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			c.Help()
			return 0, false
		}
		if err != nil {
			return c.Fail("%v", err), false
		}
		rest := c.Flags.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			c.Pos = append(c.Pos, rest...)
			return 0, true
		}
		if len(rest) == 0 {
			return 0, true
		}
		c.Pos = append(c.Pos, rest[0])
		args = rest[1:]
	}
}

// Help prints the usage and the flags on stdout.
func (c *Command) Help() {
	fmt.Fprint(c.stdout, c.Usage)
	if hasFlags(c.Flags) {
		fmt.Fprintln(c.stdout, "\nflags:")
		c.Flags.SetOutput(c.stdout)
		c.Flags.PrintDefaults()
		c.Flags.SetOutput(io.Discard)
	}
}

// Fail prints one line, the message and the hint to run --help, on stderr
// and returns ExitUsage.
func (c *Command) Fail(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "deskbridge %s: %s (see deskbridge %s --help)\n", c.Name, fmt.Sprintf(format, args...), c.Name)
	return ExitUsage
}

// Args checks that between min and max positional arguments are left
// (max < 0: no upper bound), and fails otherwise.
func (c *Command) Args(min, max int) (code int, ok bool) {
	n := len(c.Pos)
	switch {
	case n < min:
		return c.Fail("missing argument"), false
	case max >= 0 && n > max:
		return c.Fail("unexpected argument %q", c.Pos[max]), false
	}
	return 0, true
}

// Arg is the i-th positional argument, or "" when there are fewer.
func (c *Command) Arg(i int) string {
	if i < len(c.Pos) {
		return c.Pos[i]
	}
	return ""
}

// IsHelp reports whether arg asks for help.
func IsHelp(arg string) bool { return slices.Contains([]string{"-h", "-help", "--help", "help"}, arg) }

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}
