package main

import (
	"context"
	"fmt"
	"io"

	"github.com/deskbridge/deskbridge/policy"
)

// policyCommand runs `deskbridge policy test [DIR] [-v]`.
func policyCommand(_ string, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "test" {
		fmt.Fprint(stderr, "usage: deskbridge policy test [DIR] [-v]\n")
		return 2
	}
	verbose, dir := false, ""
	for _, a := range args[1:] {
		if a == "-v" {
			verbose = true
		} else {
			dir = a
		}
	}
	src := policy.Embedded()
	if dir != "" {
		var err error
		if src, err = policy.Dir(dir); err != nil {
			fmt.Fprintf(stderr, "deskbridge: %v\n", err)
			return 2
		}
	}
	rep, err := policy.RunTests(context.Background(), src, verbose, stdout)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	if !rep.OK() {
		return 1
	}
	return 0
}
