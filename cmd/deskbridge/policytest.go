package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/cover"
	"github.com/open-policy-agent/opa/v1/format"

	"github.com/deskbridge/deskbridge/internal/cliflag"
	"github.com/deskbridge/deskbridge/policy"
)

const policyTestUsage = `usage: deskbridge policy test [DIR_OR_BUNDLE] [flags]

Run the policy's _test.rego tests (default: the embedded policy) with OPA's
tester, under the capabilities the host decides with. Exit 1 when one
fails, or when --threshold is given and the coverage is below it.
`

func policyTest(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("policy test", policyTestUsage, stdout, stderr)
	var opts policy.TestOptions
	c.Flags.BoolVar(&opts.Verbose, "v", false, "list every test")
	c.Flags.StringVar(&opts.Run, "run", "", "run only the tests whose package.name matches `REGEX`")
	c.Flags.DurationVar(&opts.Timeout, "timeout", 0, "stop a test after `D` (e.g. 5s)")
	c.Flags.BoolVar(&opts.Coverage, "coverage", false, "report the lines of each module the tests evaluate")
	threshold := c.Flags.Float64("threshold", 0, "with --coverage: fail below `N` percent")
	formatName := c.Flags.String("format", "text", "report as `text` or json (OPA's reporters)")
	c.Flags.BoolVar(&opts.Bench, "bench", false, "run the tests as benchmarks")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(0, 1); !ok {
		return code
	}
	if *formatName != "text" && *formatName != "json" {
		return c.Fail("--format is text or json, not %q", *formatName)
	}
	opts.JSON = *formatName == "json"
	src, err := loadSource(c.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	testOut := stdout
	if opts.JSON && opts.Coverage {
		testOut = io.Discard // the coverage report is the JSON output, as opa test's
	}
	rep, err := policy.RunTestsWith(context.Background(), src, opts, testOut)
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	code := 0
	if !rep.OK() {
		code = 1
	}
	if rep.Coverage != nil {
		if opts.JSON {
			printJSON(stdout, rep.Coverage)
		} else {
			printCoverage(stdout, rep.Coverage)
		}
		if *threshold > 0 && rep.Coverage.Coverage < *threshold {
			fmt.Fprintf(stderr, "deskbridge: coverage %.1f%% is below the threshold %.1f%%\n", rep.Coverage.Coverage, *threshold)
			code = 1
		}
	}
	return code
}

// printCoverage writes the coverage of each file and the lines not
// covered.
func printCoverage(w io.Writer, r *cover.Report) {
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range r.Files {
			if !yield(k) {
				return
			}
		}
	}) {
		f := r.Files[name]
		fmt.Fprintf(w, "%s: %.1f%% covered", name, f.Coverage)
		if len(f.NotCovered) > 0 {
			fmt.Fprintf(w, "; not covered: lines %s", lineRanges(f.NotCovered))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "coverage: %.1f%% (%d of %d lines)\n", r.Coverage, r.CoveredLines, r.CoveredLines+r.NotCoveredLines)
}

// lineRanges writes ranges as "3-5, 9".
func lineRanges(rs []cover.Range) string {
	parts := make([]string, 0, len(rs))
	for _, r := range rs {
		if r.Start.Row == r.End.Row {
			parts = append(parts, fmt.Sprint(r.Start.Row))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", r.Start.Row, r.End.Row))
		}
	}
	return strings.Join(parts, ", ")
}

const policyFmtUsage = `usage: deskbridge policy fmt [--write] DIR

List the .rego files of the folder DIR (tests included) that OPA's formatter
(opa fmt, Rego v1) would change; with --write, rewrite them. Exit 1 when
a file is listed and not rewritten.
`

// policyFmt lists or rewrites the policy files OPA's formatter changes.
func policyFmt(args []string, stdout, stderr io.Writer) int {
	c := cliflag.New("policy fmt", policyFmtUsage, stdout, stderr)
	write := c.Flags.Bool("write", false, "rewrite each file that is not formatted")
	if code, ok := c.Parse(args); !ok {
		return code
	}
	if code, ok := c.Args(1, 1); !ok {
		return code
	}
	changed := 0
	err := filepath.WalkDir(c.Arg(0), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".rego" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out, err := format.SourceWithOpts(p, b, format.Opts{RegoVersion: ast.RegoV1})
		if err != nil || string(out) == string(b) {
			return err
		}
		fmt.Fprintln(stdout, p)
		if *write {
			return os.WriteFile(p, out, 0o600)
		}
		changed++
		return nil
	})
	if err != nil {
		fmt.Fprintf(stderr, "deskbridge: %v\n", err)
		return 2
	}
	if changed > 0 {
		return 1
	}
	return 0
}
