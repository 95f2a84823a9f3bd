package engine

import (
	"context"
	"fmt"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/urlfacts"
	"github.com/deskbridge/deskbridge/protocol"
)

// resolveAndDecide is the second step of a URL action whose host is a
// name to look up (docs/policy-input.md, "Two decisions"). The first
// decision judged everything that needs no address (scheme, host name,
// port, a team's domain rules) on an input without input.url.ips, and
// allowed the request; only now is the name looked up, and the request
// decided again on the addresses it stands for (the private-network
// rules), which are the ones the executor dials. The first decision's
// outcome line says what the look-up gave; a name that does not resolve
// is refused as a fact of the host (host.facts), logged with its URL.
// A call that has no URL, or whose addresses were known without a query
// (an IP literal, a localhost name), was decided once, on them.
func (h *Host) resolveAndDecide(ctx context.Context, r *request) *protocol.Error {
	u := r.call.URL
	if u == nil || urlfacts.Resolved(*u) {
		return nil
	}
	if err := urlfacts.Resolve(ctx, u, h.env.Resolver); err != nil {
		perr := errmap.URL(err)
		r.closeStep(string(perr.Code), map[string]any{"resolved": false})
		return h.refuse(ctx, r, r.call, ruleFacts, perr)
	}
	r.closeStep(decisionlog.OutcomeOK, map[string]any{"resolved": true, "addresses": len(u.IPs)})
	return h.decide(ctx, r)
}

// judgeRedirect decides a redirect hop of r's URL action to the absolute
// URL to (redirected from from, hop n) as the request's own URL is
// decided (docs/policy-input.md, "Redirects"): the decision before it
// gets its outcome (OK, with the hop's number in its detail: its effect
// was the redirect), then the hop's URL facts, with redirect_from and
// redirects, replace input.url, and the request is decided on them
// without addresses, its name looked up only when that allowed it, and
// decided again on the addresses. Every step is a logged decision of the
// request (its request_id), the last one's outcome the request's; a
// refusal ends the request with its rule. It returns the facts with the
// addresses judged, which the client dials and nothing else.
func (r *request) judgeRedirect(ctx context.Context, to, from string, n int) (urlfacts.Facts, *protocol.Error) {
	h := r.h
	r.closeStep(decisionlog.OutcomeOK, map[string]any{"redirect": n})
	u, err := urlfacts.Parse(to)
	if err != nil {
		r.call.URL = &urlfacts.Facts{Raw: to, RedirectFrom: from, Redirects: n}
		return urlfacts.Facts{}, h.refuse(ctx, r, r.call, ruleFacts, errmap.URL(err))
	}
	f := u.NameFacts()
	f.RedirectFrom, f.Redirects = from, n
	r.call.URL = &f
	if perr := h.decide(ctx, r); perr != nil {
		return urlfacts.Facts{}, perr
	}
	if perr := h.resolveAndDecide(ctx, r); perr != nil {
		return urlfacts.Facts{}, perr
	}
	return *r.call.URL, nil
}

// closeStep writes the outcome of r's logged decision when the request
// goes on to another decision (a URL action's first decision, whose effect
// was the look-up it allowed), with code and detail saying what that step
// did. The line is queued: the next decision's line, which always follows,
// writes it before itself.
func (r *request) closeStep(code string, detail map[string]any) {
	if !r.logged {
		return
	}
	r.logged = false
	if err := r.h.log.QueueOutcome(&r.ev, code, r.h.now().Sub(r.start), detail); err != nil {
		fmt.Fprintf(r.h.hostLog, "deskbridge: decision log outcome: %v\n", err)
	}
}
