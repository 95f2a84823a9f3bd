// Package action defines what one action is: its argument type, the facts
// it gathers for the policy, and the executor that carries out an allowed
// request; and keeps the registry of built actions.
//
// An action is one small unit registered once, in its feature package
// under engine/ (engine/files, engine/images …; docs/architecture.md). A v1
// action that is not registered is not built yet: the engine answers
// SKILL_RUNTIME_UNAVAILABLE without asking the policy, which would judge
// facts such an action never gathers, and logs that refusal.
package action

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"sync"

	"github.com/deskbridge/deskbridge/config"
	"github.com/deskbridge/deskbridge/engine/cmdfacts"
	"github.com/deskbridge/deskbridge/engine/contentscan"
	"github.com/deskbridge/deskbridge/engine/errmap"
	"github.com/deskbridge/deskbridge/engine/facts"
	"github.com/deskbridge/deskbridge/engine/urlfacts"
	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/deskbridge/deskbridge/sandbox/browser"
	"github.com/deskbridge/deskbridge/sandbox/desktop"
	"github.com/deskbridge/deskbridge/sandbox/runstore"
)

// Env is what actions share for the life of the host process.
type Env struct {
	Config *config.Config
	Paths  *facts.Resolver
	Roots  *sandbox.Roots
	// Opener opens URLs for open_in_browser (browser.System in a running
	// host; tests record instead).
	Opener browser.Opener
	// Desktop is the clipboard and screen of the desktop actions
	// (desktop.System in a running host, chosen on first use).
	Desktop desktop.Desktop
	// Runs returns the agent run store, opening it on first use (not at
	// start-up, whose time matters); nil means agent runs are unavailable.
	Runs func() (*runstore.Store, error)
	// Resolver looks up the host names of URL actions, after their first
	// decision (docs/policy-input.md, "Two decisions"); nil means
	// net.DefaultResolver. Tests record the names asked.
	Resolver urlfacts.Resolver
	// Self is the deskbridge program that preview_web and open_deskbridge
	// start their servers with; "" means this process's own executable.
	Self string
	// Info describes the running host for get_status.
	Info Info
	// CheckContent is the content check (the engine's): it scans what a
	// call is about to send for secret formats and, when one matched,
	// asks the policy, then refuses the call or overwrites the secrets in
	// the parts' Text. nil means no check (tests of one action).
	CheckContent func(ctx context.Context, c *Call, parts []Outgoing) *protocol.Error
}

// Outgoing is one piece of a response that carries file or program
// content out of the host, for the content check.
type Outgoing struct {
	// Source names the part in input.content.secrets: the member of the
	// answer it becomes, with its indices ("content", "stdout",
	// "results[2].data.content").
	Source string
	// Text is the part; a redaction overwrites it in place.
	Text []byte
	// Before and After are the bytes around Text when Text is a page of
	// something longer (a read_file page), so that a secret cut by the
	// page's edges is still recognised; only what lies in Text is sent.
	Before, After []byte
}

// Content runs the content check over parts, if the host has one: call it
// with everything a response will carry out before making the response.
// Parts that are whole (no Before or After) and hold no secret format
// are passed over here, without a call through the function value, which
// would make every caller allocate its parts.
//
// Each part's Source is the member of the answer its Text becomes, with
// its indices ("stdout", "results[2].data.content"). The engine scans
// the whole answer again before it is sent (engine/wall.go), passing
// over a member only when it holds exactly a judged part's Text
// (Call.Judged); a check here is for what only the action knows: the
// bytes around a page, the raw bytes behind base64, and a redaction made
// before the answer is encoded.
func (env *Env) Content(ctx context.Context, c *Call, parts ...Outgoing) *protocol.Error {
	if env.CheckContent == nil {
		return nil
	}
	for _, p := range parts {
		if len(p.Before) > 0 || len(p.After) > 0 || len(contentscan.Scan(p.Text)) > 0 {
			if perr := env.CheckContent(ctx, c, slices.Clone(parts)); perr != nil {
				return perr
			}
			break
		}
	}
	c.Judged = append(c.Judged, parts...)
	return nil
}

// Info describes the running host.
type Info struct {
	Version        string
	PolicyRevision string
	PolicyHash     string
	ConfigHash     string
	ConfigSource   string
	// Warm is set in a warm process (cmd/deskbridge-host), which serves
	// many ports from one start.
	Warm bool
}

// Call is one request on its way through the pipeline.
type Call struct {
	Request protocol.Request
	Skill   protocol.Skill
	Origin  string
	Channel string
	// Args is the decoded argument value (a pointer to the action's type).
	Args any
	// Paths are the path facts by role (input.paths).
	Paths map[policy.Role]facts.Path
	// Command, URL, Import and Run are the other facts of the actions that
	// have them (input.command, input.url, input.import, input.run).
	Command *cmdfacts.Facts
	URL     *urlfacts.Facts
	Import  *policy.Import
	Run     *policy.Run
	// Write is input.write, for the actions that write a file.
	Write *policy.Write
	// Limits are the decision's limits for this action. A policy may give
	// any limit by name (a security team's own among them), so they stay
	// a map; Limit reads one.
	Limits map[string]int64
	// Detail is what Run reports about its result for the decision log's
	// outcome event: counts and codes, never content.
	Detail map[string]any
	// JudgeRedirect decides a redirect hop of a URL action to the
	// absolute URL to, redirected from from, hop n (1 for the first),
	// before its name is looked up, exactly as the request's own URL
	// (docs/policy-input.md, "Redirects"): it returns the hop's URL facts
	// with the addresses the policy judged, or the refusal that ends the
	// request. The engine sets it on every call it runs; nil (a test of
	// one action) refuses every redirect.
	JudgeRedirect func(ctx context.Context, to, from string, n int) (urlfacts.Facts, *protocol.Error)
	// Judged are the parts Env.Content passed, with their Text after the
	// check: the engine's scan of the answer passes over a member that
	// holds exactly one of them, judged already (with the bytes around
	// it), and scans any other.
	Judged []Outgoing
}

// Limit returns the named limit of the decision or, when it has none (or
// one of zero or less), the default on the action's card
// (protocol.ActionInfo.DefaultLimit): the card is the one source of a
// default, so a run function names none of its own. It is 0 only for a
// limit whose card gives no default (the agent's, which the configuration
// sets). A limit past its bound in protocol.LimitBounds, which a policy
// of a security team's may give, is that bound.
func (c *Call) Limit(name string) int64 {
	v, ok := c.Limits[name]
	if !ok || v <= 0 {
		return cardDefault(c.Request.Action, name)
	}
	if max, bounded := protocol.LimitBounds[name]; bounded && v > max {
		return max
	}
	return v
}

// cardDefault returns the default of the named limit on action's card, 0
// when it gives none or there is no card.
func cardDefault(action, name string) int64 {
	card, ok := protocol.Card(action)
	if !ok {
		return 0
	}
	return card.DefaultLimit(name)
}

// Spec is one registered action: what it does. What it is (its skill,
// the input members its facts set, what it writes, its limits and their
// defaults, its content members) is its card, protocol.ActionInfo,
// which Register finds by Name and embeds: spec.Limits and spec.Content
// are the card's.
type Spec struct {
	Name string
	// NewArgs returns a pointer to a zero argument value to decode into.
	NewArgs func() any
	// Digest names argument members that enter the policy input and the
	// decision log as {length, sha256} instead of themselves. A name may
	// reach into arrays of objects: "edits[].new_text" digests new_text in
	// every element of edits.
	Digest []string
	// Facts computes the facts of call (paths and the rest); may be nil.
	// It sets exactly the input members the card's Input names (engine's
	// TestFactsSetTheCardsMembers).
	Facts func(ctx context.Context, env *Env, call *Call) *protocol.Error
	// Run carries out an allowed call and returns the response data. It
	// enforces the card's Limits (Call.Limit), and the engine timeout_ms.
	Run func(ctx context.Context, env *Env, call *Call) (any, *protocol.Error)
	// Rules are what the host refuses of the arguments beyond their
	// type's jsonschema tags (Validate's checks, absolute paths), stated
	// for the published schema (rules.go).
	Rules []Rule

	// ActionInfo is the action's card (set by Register).
	*protocol.ActionInfo
}

// Declares reports whether member, a path into the answer's JSON with
// array indices written as "[]" ("entries[].name"), is content the
// action declared: one of s.Content or a member under one.
func (s *Spec) Declares(member string) bool {
	for _, d := range s.Content {
		if member == d || len(member) > len(d) && member[:len(d)] == d && (member[len(d)] == '.' || member[len(d)] == '[') {
			return true
		}
	}
	return false
}

var registry = map[string]*Spec{}

// Register adds s to the registry, with its card. It panics on a name
// that has no card in protocol.Actions or is registered twice: both are
// programming errors.
func Register(s Spec) {
	card, ok := protocol.Card(s.Name)
	if !ok {
		panic(fmt.Sprintf("action: %q is not a v1 action: give it a card in protocol.Actions", s.Name))
	}
	s.ActionInfo = card
	if _, dup := registry[s.Name]; dup {
		panic(fmt.Sprintf("action: %q registered twice", s.Name))
	}
	registry[s.Name] = &s
}

// Lookup returns the registered action name, if it is built.
func Lookup(name string) (*Spec, bool) {
	s, ok := registry[name]
	return s, ok
}

// Built returns the names of the registered actions, sorted.
func Built() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Path resolves raw into the path fact of role, records it on call, and
// returns it.
func (c *Call) Path(env *Env, role policy.Role, raw string) (facts.Path, *protocol.Error) {
	p, err := env.Paths.Resolve(raw)
	if err != nil {
		return p, err
	}
	if endsInSeparator(raw) && p.Exists && p.Type != facts.TypeFolder {
		return p, protocol.Errorf(protocol.InvalidRequest,
			"The %s path ends with a separator, which names a folder, but it is a %s; remove the trailing separator.", role, p.Type)
	}
	if c.Paths == nil {
		c.Paths = map[policy.Role]facts.Path{}
	}
	c.Paths[role] = p
	return p, nil
}

// endsInSeparator reports whether raw ends with a path separator of this
// OS: such a path names a folder, as the OS's own calls read it (ENOTDIR).
func endsInSeparator(raw string) bool {
	return raw != "" && os.IsPathSeparator(raw[len(raw)-1])
}

// WritableRoot is Root for an action that changes p: it refuses
// DeskBridge's own files (its configuration, policy, log, state, manifests)
// natively, whatever the policy decided.
func (env *Env) WritableRoot(p facts.Path) (*os.Root, *protocol.Error) {
	if p.Protected {
		return nil, protocol.Errorf(protocol.PermissionDenied, "The target is DeskBridge's own file or folder, which it never writes; change it by hand.")
	}
	return env.Root(p)
}

// Root opens the root handle of the workspace the path fact lies in.
func (env *Env) Root(p facts.Path) (*os.Root, *protocol.Error) {
	if !p.Inside {
		return nil, protocol.Errorf(protocol.WorkspaceViolation, "The target is outside the allowed workspace.")
	}
	r, err := env.Roots.Open(p.WorkspaceRoot)
	if err != nil {
		return nil, errmap.File(err)
	}
	return r, nil
}

// Args returns call's decoded arguments as *A.
func Args[A any](c *Call) *A { return c.Args.(*A) }

// ResponseBudget returns how many bytes a string member of data may add
// before the whole response would pass the message cap: data is the
// response's data with that member empty and every other member at its
// largest.
func (c *Call) ResponseBudget(data any) int {
	scratch := budgetScratch.Get().(*[]byte)
	defer budgetScratch.Put(scratch)
	b, err := protocol.AppendResponse((*scratch)[:0], protocol.Success(c.Request.ID, data))
	if cap(b) <= 2*wire.MaxPayload {
		*scratch = b[:0] // keep the grown buffer for the next measure
	}
	if err != nil {
		return 0
	}
	return wire.MaxPayload - len(b)
}

// budgetScratch holds buffers ResponseBudget encodes into only to measure.
var budgetScratch = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}
