// Package decisionlog writes and verifies the DeskBridge decision log: one
// JSON line per policy decision and one per outcome, chained by SHA-256 so
// that a changed, removed, inserted or reordered line is found by Verify.
//
// The format, the hash chain, durability and rotation are described in
// docs/decision-log.md.
package decisionlog

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Phases of an event: the decision is written before the action's effect,
// the outcome after it, both with the same decision_id.
const (
	PhaseDecision = "decision"
	PhaseOutcome  = "outcome"
	// PhaseContext is a line that states, once per writer and file, what
	// its decisions share (labels, bundles, policy and configuration
	// hashes), so that each decision line need not repeat it (compact.go).
	PhaseContext = "context"
	// PhaseNote is a line in which the writer states something that
	// happened to the log itself: today a write that failed part way
	// (a full disk) and whose piece was cut off (append.go, cutShortWrite).
	// Its detail says what; readers of decisions pass over it.
	PhaseNote = "note"
)

// Decision paths (Event.Path): the policy's decision document, and a
// refusal the host makes before asking the policy (an action that has no
// executor in this build), which replay does not re-evaluate.
const (
	PolicyPath = "deskbridge/main/decision"
	HostPath   = "deskbridge/host/refusal"
)

// OutcomeOK is the outcome code of an allowed decision and of an action
// that succeeded; any other outcome is OutcomeCancelled or one of the 29
// v1 error codes.
const OutcomeOK = "OK"

// OutcomeCancelled is the outcome of an allowed request whose effect was
// cancelled because its port closed or its host was stopped (the outcome
// line's detail says which, as "reason"). It is a log outcome only, never
// a code on the wire: no one is left to answer.
const OutcomeCancelled = "CANCELLED"

// Genesis is the prev_hash of the very first event of a log.
const Genesis = "0000000000000000000000000000000000000000000000000000000000000000"

// Labels identify the host that decided, as OPA's decision-log labels do.
type Labels struct {
	ID      string `json:"id"`
	Version string `json:"version"`
}

// Bundle records the revision of an OPA bundle that took part in a decision.
type Bundle struct {
	Revision string `json:"revision,omitempty"`
}

// Event is one line of the decision log: the fields of OPA's decision-log
// event (EventV1) plus the DeskBridge request, outcome and chain fields.
//
// The field order below is the order on disk. Seq, PrevHash, Hash and
// FileStart are set by the Log; callers fill in the rest.
type Event struct {
	// Context is the id of the context line (PhaseContext) that a
	// decision line takes its labels, bundles and hashes from, and that
	// line's own id; "" on lines written in full (every line before the
	// compact form).
	Context    string            `json:"ctx,omitempty"`
	Labels     Labels            `json:"labels"`
	DecisionID string            `json:"decision_id"`
	Bundles    map[string]Bundle `json:"bundles,omitempty"`
	Path       string            `json:"path"`
	Input      any               `json:"input,omitempty"`
	Result     any               `json:"result,omitempty"`
	Erased     []string          `json:"erased,omitempty"`
	Masked     []string          `json:"masked,omitempty"`
	Timestamp  time.Time         `json:"timestamp"`
	Metrics    map[string]any    `json:"metrics,omitempty"`

	RequestID  string `json:"request_id"`
	Action     string `json:"action"`
	Origin     string `json:"origin"`
	Phase      string `json:"phase"`
	Outcome    string `json:"outcome"`
	DurationNS int64  `json:"duration_ns"`
	// Detail holds facts about an outcome (counts returned, an exit code),
	// never content; only outcome events carry it.
	Detail     map[string]any `json:"detail,omitempty"`
	PolicyHash string         `json:"policy_hash"`
	ConfigHash string         `json:"config_hash"`

	Seq       uint64 `json:"seq"`
	FileStart bool   `json:"file_start,omitempty"`
	PrevHash  string `json:"prev_hash"`
	Hash      string `json:"hash,omitempty"`
}

// hashMember is what a line carries after its canonical body: the body's
// closing brace is replaced by `,"hash":"<64 hex>"}`.
const (
	hashPrefix = `,"hash":"`
	hashSuffix = `"}`
	hashLen    = sha256.Size * 2
	trailerLen = len(hashPrefix) + hashLen + len(hashSuffix)
)

// encodeLine returns the line to write for ev as it stands (its Seq,
// FileStart and PrevHash already set), ending in '\n', and the hash of
// its body. The writer uses the same encoder in two steps (lineBuf).
func encodeLine(ev *Event) (line []byte, sum string, err error) {
	lb, err := newLine(ev)
	if err != nil {
		return nil, "", err
	}
	sum = lb.finish(ev.Seq, ev.FileStart, ev.PrevHash)
	return lb.line(false), sum, nil
}

// hashBytes is the lowercase hex SHA-256 of b.
func hashBytes(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
