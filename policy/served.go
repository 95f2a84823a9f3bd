package policy

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// servedChecksVersion names the checks a set to serve passes (vetServed):
// changing them changes every mark's name, so that each set is judged by
// the new checks on its next start.
const servedChecksVersion = "contract-1"

// vetServed refuses a set the host would not really enforce: one that
// breaks what DeskBridge reads (contractProblems, whose first error it
// returns with how many there are) or whose own tests fail (naming them).
// It returns the warnings, and writes each to out. c must have been
// compiled with every stage.
func vetServed(ctx context.Context, src *Source, c *compiled, out io.Writer) ([]Problem, error) {
	var errs, warnings []Problem
	for _, p := range contractProblems(c.compiler, src) {
		if p.Warning {
			fmt.Fprintf(out, "deskbridge: policy %s: %s\n", src.Name, p)
			warnings = append(warnings, p)
			continue
		}
		errs = append(errs, p)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s (%d problems; `deskbridge policy check %s` lists them)", errs[0], len(errs), src.Name)
	}
	return warnings, runOwnTests(ctx, src)
}

// ownTestTimeout bounds each of a served policy's own tests. OPA's
// default of 5 s is meant for a person at a terminal; a host starting on a
// busy machine (or under the race detector) was seen to pass it on a test
// that takes 70 ms when idle, refusing a sound policy. A test that loops
// still ends.
const ownTestTimeout = time.Minute

// runOwnTests fails when one of src's tests fails; the embedded set's
// ran when it was built.
func runOwnTests(ctx context.Context, src *Source) error {
	if src.shipped || len(src.Tests) == 0 {
		return nil
	}
	rep, err := RunTestsWith(ctx, src, TestOptions{Timeout: ownTestTimeout}, io.Discard)
	if err != nil {
		return err
	}
	if rep.Failed > 0 || rep.Errored > 0 {
		return fmt.Errorf("its own tests fail, so it is not served: %s (%d passed, %d failed, %d errored; `deskbridge policy test %s -v` shows why)",
			strings.Join(rep.Failures, ", "), rep.Passed, rep.Failed, rep.Errored, src.Name)
	}
	return nil
}
