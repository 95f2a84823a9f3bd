package cmdfacts

import "strings"

// OptionsEnd is the index in args of the first "--" (where a program stops
// reading options), or len(args) when there is none.
func OptionsEnd(args []string) int {
	for i, a := range args {
		if a == "--" {
			return i
		}
	}
	return len(args)
}

// FirstOperand is the index in args of the first argument that does not
// begin with "-" (git's and npm's subcommand), or len(args) when every
// argument does.
func FirstOperand(args []string) int {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return i
		}
	}
	return len(args)
}
