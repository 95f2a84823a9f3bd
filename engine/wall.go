package engine

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/contentscan"
	"github.com/deskbridge/deskbridge/policy"
	"github.com/deskbridge/deskbridge/protocol"
)

// The wall. Whatever an action's Run returns, every string its answer
// holds is scanned for secret formats before the answer is encoded: the
// content check no longer depends on an action remembering to call it.
// A secret in a member the action declares as content (action.Spec's
// Content) goes to the policy's content decision (checkContent), which
// refuses, masks, or refuses as content.unhandled what no rule judged; a
// secret in a member the action does not declare is refused at once
// (content.undeclared) and reported in the host log as the bug it is.

// ruleUndeclared is the rule of the refusal of a secret found in a member
// of the answer its action does not declare as content.
const ruleUndeclared = "content.undeclared"

// found is a string of the answer in which a secret format matched.
type found struct {
	path     string // with indices: "entries[3].name"
	member   string // indices as "[]": "entries[].name"
	text     string
	settable bool // a plain string the wall can overwrite (not a map key or []byte)
}

// wall scans data, the answer of call, and returns what may be sent:
// data itself, or a copy with the secrets the policy masks overwritten.
func (h *Host) wall(ctx context.Context, call *action.Call, spec *action.Spec, data any) (any, *protocol.Error) {
	if data == nil {
		return nil, nil
	}
	var path, member [96]byte // the member names of most answers fit
	s := scanner{judged: call.Judged, path: path[:0], member: member[:0]}
	s.value(reflect.ValueOf(data))
	if len(s.found) == 0 {
		return data, nil
	}
	var parts []action.Outgoing
	for _, f := range s.found {
		if !spec.Declares(f.member) || !f.settable {
			return nil, h.refuseUndeclared(call, f)
		}
		parts = append(parts, action.Outgoing{Source: f.path, Text: []byte(f.text)})
	}
	if perr := h.checkContent(ctx, call, parts); perr != nil {
		return nil, perr
	}
	masked := map[string]string{}
	for i, f := range s.found {
		if string(parts[i].Text) != f.text {
			masked[f.path] = string(parts[i].Text)
		}
	}
	if len(masked) == 0 {
		return data, nil
	}
	w := scanner{replace: masked}
	v, _ := w.value(reflect.ValueOf(data))
	return v.Interface(), nil
}

// refuseUndeclared refuses an answer with a secret in a member its action
// does not declare: the host log names the member, so that the action's
// declaration can be fixed.
func (h *Host) refuseUndeclared(call *action.Call, f found) *protocol.Error {
	why := "which its card does not declare as content (Content in protocol/actions.go)"
	if !f.settable {
		why = "a map key or bytes, which cannot be masked"
	}
	fmt.Fprintf(h.hostLog, "deskbridge: %s answered a secret format in %s, %s; refused\n", call.Request.Action, f.path, why)
	record := contentRecord(call, policy.Content{})
	record["outcome"], record["rule"], record["member"] = "refused", ruleUndeclared, f.path
	perr := protocol.Errorf(protocol.PermissionDenied,
		"The response holds what looks like a secret in %s, where %s does not send content, so DeskBridge does not send it; please report this.",
		f.path, call.Request.Action)
	perr.Rule = ruleUndeclared
	return perr
}

// scanner walks an answer as its JSON encoding names it: struct fields by
// their json names (embedded structs inlined, "-" and unexported fields
// left out), slices and arrays by index, maps by key. Without replace it
// scans each string and collects the ones a secret format matches; with
// it, it returns a copy of the value with the strings at replace's paths
// replaced (the slices and pointed-to values of the answer are changed in
// place: they belong to this answer alone).
type scanner struct {
	path, member []byte // the current member, with and without indices
	found        []found
	replace      map[string]string
	judged       []action.Outgoing // passed over where the answer holds them as they were judged
}

var timeType = reflect.TypeFor[time.Time]()

// value walks v and, when replacing, returns the value to put in its
// place and whether it differs.
func (s *scanner) value(v reflect.Value) (reflect.Value, bool) {
	switch v.Kind() {
	case reflect.String:
		return s.str(v)
	case reflect.Pointer, reflect.Interface:
		return s.indirect(v)
	case reflect.Struct:
		return s.fields(v)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			s.bytes(v.Bytes())
			return v, false
		}
		s.elems(v)
	case reflect.Array:
		return s.array(v)
	case reflect.Map:
		s.mapEntries(v)
	}
	return v, false
}

// str scans a string, or replaces it.
func (s *scanner) str(v reflect.Value) (reflect.Value, bool) {
	text := v.String()
	if s.replace == nil {
		if len(text) >= 2 && !s.wasJudged(text) && len(contentscan.Scan(unsafe.Slice(unsafe.StringData(text), len(text)))) > 0 {
			s.found = append(s.found, found{path: string(s.path), member: string(s.member), text: text, settable: true})
		}
		return v, false
	}
	r, ok := s.replace[string(s.path)]
	if !ok {
		return v, false
	}
	nv := reflect.New(v.Type()).Elem()
	nv.SetString(r)
	return nv, true
}

// wasJudged reports whether the current member holds exactly the text
// the action's own content check passed for it.
func (s *scanner) wasJudged(text string) bool {
	for _, j := range s.judged {
		if j.Source == string(s.path) && string(j.Text) == text {
			return true
		}
	}
	return false
}

// bytes scans a []byte member (encoded as base64, so never overwritten:
// a secret in one is refused).
func (s *scanner) bytes(b []byte) {
	if s.replace == nil && len(contentscan.Scan(b)) > 0 {
		s.found = append(s.found, found{path: string(s.path), member: string(s.member), text: string(b)})
	}
}

func (s *scanner) indirect(v reflect.Value) (reflect.Value, bool) {
	if v.IsNil() {
		return v, false
	}
	e, changed := s.value(v.Elem())
	if !changed {
		return v, false
	}
	if v.Kind() == reflect.Pointer {
		v.Elem().Set(e)
		return v, false
	}
	nv := reflect.New(v.Type()).Elem()
	nv.Set(e)
	return nv, true
}

// fields walks a struct's JSON members; a changed struct is a copy.
func (s *scanner) fields(v reflect.Value) (reflect.Value, bool) {
	t := v.Type()
	if t == timeType {
		return v, false
	}
	var cp reflect.Value
	for i := range t.NumField() {
		f := t.Field(i)
		name, inline := jsonName(f)
		if name == "" && !inline {
			continue
		}
		n0, m0 := len(s.path), len(s.member)
		if !inline {
			s.push(name)
		}
		nf, changed := s.value(v.Field(i))
		s.path, s.member = s.path[:n0], s.member[:m0]
		if changed {
			if !cp.IsValid() {
				cp = reflect.New(t).Elem()
				cp.Set(v)
			}
			cp.Field(i).Set(nf)
		}
	}
	if cp.IsValid() {
		return cp, true
	}
	return v, false
}

// jsonName is the member name of f in JSON, or inline for an embedded
// struct without a name of its own; "" and false leave f out.
func jsonName(f reflect.StructField) (name string, inline bool) {
	if !f.IsExported() && !f.Anonymous {
		return "", false
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", false
	}
	name, opts, _ := strings.Cut(tag, ",")
	if f.Anonymous && name == "" || strings.Contains(opts, "inline") {
		return "", true
	}
	if !f.IsExported() {
		return "", false
	}
	if name == "" {
		name = f.Name
	}
	return name, false
}

func (s *scanner) push(name string) {
	if len(s.path) > 0 {
		s.path, s.member = append(s.path, '.'), append(s.member, '.')
	}
	s.path, s.member = append(s.path, name...), append(s.member, name...)
}

// elems walks a slice's elements in place.
func (s *scanner) elems(v reflect.Value) {
	for i := range v.Len() {
		if ne, changed := s.elem(v, i); changed {
			v.Index(i).Set(ne)
		}
	}
}

// array walks an array's elements; a changed array is a copy.
func (s *scanner) array(v reflect.Value) (reflect.Value, bool) {
	var cp reflect.Value
	for i := range v.Len() {
		if ne, changed := s.elem(v, i); changed {
			if !cp.IsValid() {
				cp = reflect.New(v.Type()).Elem()
				cp.Set(v)
			}
			cp.Index(i).Set(ne)
		}
	}
	if cp.IsValid() {
		return cp, true
	}
	return v, false
}

func (s *scanner) elem(v reflect.Value, i int) (reflect.Value, bool) {
	n0, m0 := len(s.path), len(s.member)
	s.path = append(strconv.AppendInt(append(s.path, '['), int64(i), 10), ']')
	s.member = append(s.member, "[]"...)
	defer func() { s.path, s.member = s.path[:n0], s.member[:m0] }()
	return s.value(v.Index(i))
}

// keyName is a map key as its JSON member name.
func keyName(k reflect.Value) string {
	switch {
	case k.Kind() == reflect.String:
		return k.String()
	case k.CanInterface():
		return fmt.Sprint(k.Interface())
	}
	return "?"
}

// mapEntries walks a map's keys (as strings that cannot be overwritten)
// and values (in place), in no particular order.
func (s *scanner) mapEntries(v reflect.Value) {
	it := v.MapRange()
	for it.Next() {
		k := it.Key()
		key := keyName(k)
		name, secretKey := key, len(contentscan.Scan([]byte(key))) > 0
		if secretKey {
			name = "*" // a path is logged and answered: never the secret
		}
		n0, m0 := len(s.path), len(s.member)
		s.push(name)
		s.member = s.member[:m0]
		if m0 > 0 {
			s.member = append(s.member, '.')
		}
		s.member = append(s.member, '*')
		if secretKey && s.replace == nil {
			s.found = append(s.found, found{path: string(s.path), member: string(s.member), text: key})
		}
		if nv, changed := s.value(it.Value()); changed {
			v.SetMapIndex(k, nv)
		}
		s.path, s.member = s.path[:n0], s.member[:m0]
	}
}
