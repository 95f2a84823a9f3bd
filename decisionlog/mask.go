package decisionlog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/deskbridge/deskbridge/internal/jsonptr"
)

// Mask operations, as in OPA's system.log.mask.
const (
	MaskRemove = "remove"
	MaskUpsert = "upsert"
)

// MaskOp is one masking instruction: remove the value at Path, or upsert
// Value there. Path is a JSON pointer (RFC 6901) rooted at /input or /result.
type MaskOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// Masker decides what to mask in a decision event before it is written, as
// OPA's system.log.mask policy does. The event passed in is the complete,
// unmasked decision event and must not be modified.
type Masker interface {
	Mask(ctx context.Context, ev *Event) ([]MaskOp, error)
}

// ErrMask reports a mask operation that cannot be applied.
var ErrMask = errors.New("decisionlog: invalid mask")

// ParseMaskOps converts the value of a system.log.mask rule (a set or array
// of JSON-pointer strings, which mean remove, and {"op","path","value"}
// objects) into MaskOps.
func ParseMaskOps(v any) ([]MaskOp, error) {
	items, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("%w: want an array, got %T", ErrMask, v)
	}
	ops := make([]MaskOp, 0, len(items))
	for _, it := range items {
		op, err := parseMaskOp(it)
		if err != nil {
			return nil, err
		}
		ops = append(ops, op)
	}
	return ops, nil
}

func parseMaskOp(v any) (MaskOp, error) {
	switch x := v.(type) {
	case string:
		return MaskOp{Op: MaskRemove, Path: x}, nil
	case map[string]any:
		op, _ := x["op"].(string)
		path, _ := x["path"].(string)
		if op == "" {
			op = MaskRemove
		}
		return MaskOp{Op: op, Path: path, Value: x["value"]}, nil
	}
	return MaskOp{}, fmt.Errorf("%w: rule of type %T", ErrMask, v)
}

// ApplyMask applies ops to ev in order, as OPA does: remove deletes the
// value at the path (a missing path is no error) and records the path in
// ev.Erased; upsert sets the value, creating missing objects on the way,
// and records the path in ev.Masked. ev.Input and ev.Result are replaced
// by masked deep copies, so values shared with the caller are not changed.
//
// Every op is checked before any is applied; an invalid op (unknown op,
// path not under /input or /result, bad pointer) fails the whole call.
func ApplyMask(ev *Event, ops []MaskOp) error {
	if len(ops) == 0 {
		return nil
	}
	parsed := make([][]string, len(ops))
	for i, op := range ops {
		p, err := checkOp(op)
		if err != nil {
			return err
		}
		parsed[i] = p
	}
	doc, err := genericCopy(map[string]any{"input": ev.Input, "result": ev.Result})
	if err != nil {
		return err
	}
	for i, op := range ops {
		applyOp(ev, doc, op, parsed[i])
	}
	ev.Input, ev.Result = doc["input"], doc["result"]
	return nil
}

// checkOp validates op and returns its pointer as reference tokens.
func checkOp(op MaskOp) ([]string, error) {
	if op.Op != MaskRemove && op.Op != MaskUpsert {
		return nil, fmt.Errorf("%w: op %q", ErrMask, op.Op)
	}
	tokens, err := jsonptr.Parse(op.Path)
	if err != nil {
		return nil, fmt.Errorf("%w: path: %w", ErrMask, err)
	}
	if tokens[0] != "input" && tokens[0] != "result" {
		return nil, fmt.Errorf("%w: path %q is not under /input or /result", ErrMask, op.Path)
	}
	return tokens, nil
}

func applyOp(ev *Event, doc map[string]any, op MaskOp, tokens []string) {
	switch op.Op {
	case MaskRemove:
		if _, ok := removeAt(doc, tokens); ok {
			ev.Erased = append(ev.Erased, op.Path)
		}
	case MaskUpsert:
		if upsertAt(doc, tokens, op.Value) {
			ev.Masked = append(ev.Masked, op.Path)
		}
	}
}

// removeAt deletes the value at tokens below node and reports whether there
// was one. An array element is cut out, as OPA does; the possibly shorter
// array is returned for the caller to store.
func removeAt(node any, tokens []string) (any, bool) {
	key, rest := tokens[0], tokens[1:]
	switch n := node.(type) {
	case map[string]any:
		child, ok := n[key]
		if !ok {
			return node, false
		}
		if len(rest) == 0 {
			delete(n, key)
			return n, true
		}
		child, ok = removeAt(child, rest)
		n[key] = child
		return n, ok
	case []any:
		i, ok := index(key, len(n))
		if !ok {
			return node, false
		}
		if len(rest) == 0 {
			return slices.Delete(n, i, i+1), true
		}
		n[i], ok = removeAt(n[i], rest)
		return n, ok
	}
	return node, false
}

// upsertAt sets the value at tokens below root, creating missing objects,
// and reports whether it could.
func upsertAt(root any, tokens []string, v any) bool {
	parent, ok := walk(root, tokens[:len(tokens)-1], true)
	if !ok {
		return false
	}
	last := tokens[len(tokens)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = v
		return true
	case []any:
		i, ok := index(last, len(p))
		if ok {
			p[i] = v
		}
		return ok
	}
	return false
}

// walk follows tokens from node; with create it adds missing objects.
func walk(node any, tokens []string, create bool) (any, bool) {
	for _, t := range tokens {
		switch n := node.(type) {
		case map[string]any:
			child, ok := n[t]
			if !ok || child == nil {
				if !create {
					return nil, false
				}
				child = map[string]any{}
				n[t] = child
			}
			node = child
		case []any:
			i, ok := index(t, len(n))
			if !ok {
				return nil, false
			}
			node = n[i]
		default:
			return nil, false
		}
	}
	return node, true
}

func index(t string, n int) (int, bool) {
	i, err := strconv.Atoi(t)
	return i, err == nil && i >= 0 && i < n && t == strconv.Itoa(i)
}

// genericCopy deep-copies v through JSON into maps, slices and json.Number.
func genericCopy(v map[string]any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("decisionlog: mask: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out map[string]any
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("decisionlog: mask: %w", err)
	}
	return out, nil
}

// maskOps is what the Masker says to mask in ev, if there is a Masker.
func (l *Log) maskOps(ctx context.Context, ev *Event) ([]MaskOp, error) {
	if l.opts.Masker == nil {
		return nil, nil
	}
	return l.opts.Masker.Mask(ctx, ev)
}

// MaskEvent masks ev with m as the Log masks a decision event before it
// writes it (a failure erases the whole input), for a caller that wants
// to see what the Log would write.
func MaskEvent(ctx context.Context, m Masker, ev *Event) {
	ops, err := m.Mask(ctx, ev)
	applyMask(ev, ops, err)
}

// applyMask applies a Masker's ops to ev. A masker that failed (err), or
// masks that cannot be applied, erase the whole input: a decision is
// always logged, and never with content the policy meant to hide.
func applyMask(ev *Event, ops []MaskOp, err error) {
	if err == nil {
		err = ApplyMask(ev, ops)
	}
	if err != nil {
		ev.Input = nil
		ev.Erased = append(ev.Erased, "/input")
	}
}

// Maskers combines maskers into one that returns the operations of each,
// in the order given (a later operation on the same path wins, as in
// ApplyMask); nil maskers are skipped, and with none left it returns nil.
func Maskers(ms ...Masker) Masker {
	var kept maskers
	for _, m := range ms {
		if m != nil {
			kept = append(kept, m)
		}
	}
	switch len(kept) {
	case 0:
		return nil
	case 1:
		return kept[0]
	}
	return kept
}

// maskers is the Masker that Maskers builds.
type maskers []Masker

func (ms maskers) Mask(ctx context.Context, ev *Event) ([]MaskOp, error) {
	var ops []MaskOp
	for _, m := range ms {
		more, err := m.Mask(ctx, ev)
		if err != nil {
			return nil, err
		}
		ops = append(ops, more...)
	}
	return ops, nil
}
