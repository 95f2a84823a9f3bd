package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/policy"
)

// unenforcedLimits decides, for every built action, a request of it from
// the command line under an empty configuration, and returns a problem
// for each limit the decision sets that the action does not enforce: the
// host would refuse every such request (host.limit_unenforced).
func unenforcedLimits(ctx context.Context, src *policy.Source) []string {
	e, err := policy.New(ctx, src, policy.Options{Data: map[string]any{}, Print: io.Discard})
	if err != nil {
		return nil // Check reports why it does not compile
	}
	var out []string
	seen := map[string]bool{} // a rule's error, reported for the first action it fails
	for _, a := range action.Built() {
		in := policy.Input{Version: policy.InputVersion, Request: policy.Request{ID: "check", Action: a, Channel: "cli"}}
		doc, err := in.Document()
		if err != nil {
			continue
		}
		dec, err := e.Decide(ctx, doc)
		if err != nil {
			out = append(out, fmt.Sprintf("%s: deciding a %s request failed (%v); the host would refuse it (host.policy_failed)", src.Name, a, err))
			continue
		}
		for _, p := range packageErrors(ctx, e, a, doc) {
			if !seen[p.err] {
				seen[p.err] = true
				out = append(out, p.msg)
			}
		}
		if bad := action.Unenforced(a, dec.Limits); len(bad) > 0 {
			out = append(out, fmt.Sprintf("%s: the decision for %s sets %s, which %s does not enforce (it enforces %s); the host would refuse every %s request (host.limit_unenforced); see data.deskbridge.limits.limits",
				src.Name, a, strings.Join(bad, ", "), a, strings.Join(action.Enforced(a), ", "), a))
		}
	}
	return out
}

// packageErrors evaluates every rule of each team package (not only those
// the decision reached) over the sample request doc of action a, and
// returns each run-time error (a division by zero, a conflict): a rule
// that errors for some request makes the host refuse it.
func packageErrors(ctx context.Context, e *policy.Engine, a string, doc policy.InputDocument) []packageError {
	var out []packageError
	for _, pkg := range e.TeamPackages() {
		if _, err := e.EvaluateRef(ctx, pkg, doc.ASTValue()); err != nil {
			out = append(out, packageError{err.Error(), fmt.Sprintf(
				"%v: evaluating %s for a %s request failed; the host refuses every request this rule errors on (host.policy_failed): fix the rule", err, pkg, a)})
		}
	}
	return out
}

// packageError is a run-time error of a team package and its message.
type packageError struct{ err, msg string }
