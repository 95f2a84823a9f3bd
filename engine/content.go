package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/contentscan"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// The content phase. What a file or a program holds is known only once
// the executor has read it, after the request's decision; so every answer
// passes the wall (wall.go), which hands what it finds to checkContent,
// and an action that knows more than its answer shows (read_file's page
// edges, the agent's lines with the file around them) calls it itself
// before it makes its response (action.Env.Content). The scan runs the secret formats of package contentscan; when none
// matches, nothing else happens. When one does, the policy is asked a
// second question, data.deskbridge.main.content_decision, with the
// request's input document plus input.content.secrets (rule ids, sources
// and counts, never the secret), and the call is refused or the secrets
// are overwritten, before a byte leaves; a match no rule refuses or masks
// is refused (content.unhandled, policy.DecideContent). The outcome line of the request
// records what was found and done under detail.content.

// contentDecider is a Decider that can also decide content
// (*policy.Engine); a decider without it refuses every content match.
type contentDecider interface {
	DecideContent(ctx context.Context, in policy.InputDocument) (policy.ContentDecision, error)
}

// checkContent is the host's action.Env.CheckContent.
func (h *Host) checkContent(ctx context.Context, c *action.Call, parts []action.Outgoing) *protocol.Error {
	var found [][]contentscan.Match
	for i, p := range parts {
		if ms := scanPart(p); len(ms) > 0 {
			if found == nil {
				found = make([][]contentscan.Match, len(parts))
			}
			found[i] = ms
		}
	}
	if found == nil {
		return nil
	}
	facts := contentFacts(parts, found)
	dec, err := h.decideContent(ctx, c, facts)
	record := contentRecord(c, facts)
	if err != nil {
		record["outcome"] = "undecided"
		fmt.Fprintf(h.hostLog, "deskbridge: content policy: %v\n", err)
		return protocol.Wrap(protocol.ActionNotAllowed, err,
			"The response holds what looks like a secret and the policy could not decide about it, so it is refused; run `deskbridge policy check`.")
	}
	check := map[string]any{"secrets": facts.Secrets, "result": dec.Result, "outcome": decisionlog.OutcomeOK}
	record["checks"] = append(record["checks"].([]map[string]any), check)
	if !dec.Allow {
		perr := dec.Error()
		record["outcome"], record["rule"] = "refused", perr.Rule
		check["outcome"], check["rule"] = string(perr.Code), perr.Rule
		return perr
	}
	redacted := record["redacted"].(int)
	for i, ms := range found {
		for _, m := range ms {
			if slices.Contains(dec.Redact, m.Rule) {
				contentscan.Redact(parts[i].Text, []contentscan.Match{m})
				redacted++
			}
		}
	}
	record["outcome"], record["redacted"] = "sent", redacted
	return nil
}

// contentRecord returns the call's detail.content, made on the first
// content decision of the call, with facts' secrets added. A call may
// make two (the action's own check, then the engine's scan of its
// answer): checks holds each one's secrets, result and outcome, which
// `deskbridge replay` evaluates again (decisionlog/replay).
func contentRecord(c *action.Call, facts policy.Content) map[string]any {
	record, ok := c.Detail["content"].(map[string]any)
	if !ok {
		record = map[string]any{"secrets": []policy.ContentSecret{}, "checks": []map[string]any{}, "redacted": 0}
		setDetail(c, "content", record)
	}
	record["secrets"] = append(record["secrets"].([]policy.ContentSecret), facts.Secrets...)
	return record
}

// scanPart scans one part, with the bytes around it when it is a page:
// the matches that reach into Text, in Text's offsets and clipped to it.
func scanPart(p action.Outgoing) []contentscan.Match {
	if len(p.Before) == 0 && len(p.After) == 0 {
		return contentscan.Scan(p.Text)
	}
	buf := make([]byte, 0, len(p.Before)+len(p.Text)+len(p.After))
	buf = append(append(append(buf, p.Before...), p.Text...), p.After...)
	lo, hi := len(p.Before), len(p.Before)+len(p.Text)
	var out []contentscan.Match
	for _, m := range contentscan.Scan(buf) {
		if m.Start < hi && m.End > lo {
			out = append(out, contentscan.Match{Rule: m.Rule, Start: max(m.Start, lo) - lo, End: min(m.End, hi) - lo})
		}
	}
	return out
}

// contentFacts counts the matches by source and rule, in the parts'
// order.
func contentFacts(parts []action.Outgoing, found [][]contentscan.Match) policy.Content {
	var c policy.Content
	for i, ms := range found {
		for _, m := range ms {
			j := slices.IndexFunc(c.Secrets, func(s policy.ContentSecret) bool {
				return s.Rule == m.Rule && s.Source == parts[i].Source
			})
			if j < 0 {
				c.Secrets = append(c.Secrets, policy.ContentSecret{Rule: m.Rule, Source: parts[i].Source})
				j = len(c.Secrets) - 1
			}
			c.Secrets[j].Count++
		}
	}
	return c
}

// decideContent asks the policy's content decision about the call with
// input.content set.
func (h *Host) decideContent(ctx context.Context, c *action.Call, facts policy.Content) (policy.ContentDecision, error) {
	cd, ok := h.decider.(contentDecider)
	if !ok {
		return policy.ContentDecision{}, fmt.Errorf("the decider cannot decide content")
	}
	in := inputOf(c, h.now())
	in.Content = &facts
	doc, err := in.Document()
	if err != nil {
		return policy.ContentDecision{}, err
	}
	return cd.DecideContent(ctx, doc)
}

// setDetail sets one member of the call's outcome detail.
func setDetail(c *action.Call, key string, v any) {
	if c.Detail == nil {
		c.Detail = map[string]any{}
	}
	c.Detail[key] = v
}
