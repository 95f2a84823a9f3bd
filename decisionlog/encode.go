package decisionlog

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/internal/jsonenc"
)

// The writer encodes events with the append functions below instead of
// encoding/json's reflection. They must give exactly the bytes
// encoding/json gives for an Event with SetEscapeHTML(false), member
// order and all, because the hash is taken over those bytes and other
// tools re-read them: TestEncoderMatchesEncodingJSON and
// FuzzEncoderMatchesEncodingJSON hold them to it. Values of a type the
// fast path does not know are handed to encoding/json.

// appendHead appends the body of ev up to its chain members: the opening
// brace and every member before "seq", each followed by a comma. Nothing
// in it depends on the log's tail, so it is encoded before the lock.
func appendHead(b []byte, ev *Event) ([]byte, error) {
	var err error
	b = append(b, `{"labels":{"id":`...)
	b = appendString(b, ev.Labels.ID)
	b = append(b, `,"version":`...)
	b = appendString(b, ev.Labels.Version)
	b = append(b, `},"decision_id":`...)
	b = appendString(b, ev.DecisionID)
	if len(ev.Bundles) > 0 {
		b = append(b, `,"bundles":`...)
		b = appendBundles(b, ev.Bundles)
	}
	b = append(b, `,"path":`...)
	b = appendString(b, ev.Path)
	if ev.Input != nil {
		b = append(b, `,"input":`...)
		if b, err = appendValue(b, ev.Input); err != nil {
			return nil, err
		}
	}
	if b, err = appendDecided(b, ev); err != nil {
		return nil, err
	}
	b = append(b, `,"request_id":`...)
	b = appendString(b, ev.RequestID)
	b = append(b, `,"action":`...)
	b = appendString(b, ev.Action)
	b = append(b, `,"origin":`...)
	b = appendString(b, ev.Origin)
	b = appendPhaseOutcome(b, ev)
	b = append(b, `,"duration_ns":`...)
	b = strconv.AppendInt(b, ev.DurationNS, 10)
	if b, err = appendDetail(b, ev); err != nil {
		return nil, err
	}
	b = append(b, `,"policy_hash":`...)
	b = appendString(b, ev.PolicyHash)
	b = append(b, `,"config_hash":`...)
	b = appendString(b, ev.ConfigHash)
	return append(b, ','), nil
}

// appendPhaseOutcome appends the phase and outcome members.
func appendPhaseOutcome(b []byte, ev *Event) []byte {
	b = append(b, `,"phase":`...)
	b = appendString(b, ev.Phase)
	b = append(b, `,"outcome":`...)
	return appendString(b, ev.Outcome)
}

// appendDetail appends the detail member, when there is one.
func appendDetail(b []byte, ev *Event) ([]byte, error) {
	if len(ev.Detail) == 0 {
		return b, nil
	}
	b = append(b, `,"detail":`...)
	return appendObject(b, ev.Detail)
}

// appendDecided appends what a decision line says after its input, in
// the full form and the compact one alike: the result, what masking
// erased and masked, the timestamp and the metrics.
func appendDecided(b []byte, ev *Event) ([]byte, error) {
	var err error
	if ev.Result != nil {
		b = append(b, `,"result":`...)
		if b, err = appendValue(b, ev.Result); err != nil {
			return nil, err
		}
	}
	if len(ev.Erased) > 0 {
		b = append(b, `,"erased":`...)
		b = appendStrings(b, ev.Erased)
	}
	if len(ev.Masked) > 0 {
		b = append(b, `,"masked":`...)
		b = appendStrings(b, ev.Masked)
	}
	b = append(b, `,"timestamp":`...)
	if b, err = appendTime(b, ev.Timestamp); err != nil {
		return nil, err
	}
	if len(ev.Metrics) > 0 {
		b = append(b, `,"metrics":`...)
		if b, err = appendObject(b, ev.Metrics); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// appendChain appends the members that depend on the log's tail and closes
// the body: head + appendChain is the whole body.
func appendChain(b []byte, seq uint64, fileStart bool, prevHash string) []byte {
	b = append(b, `"seq":`...)
	b = strconv.AppendUint(b, seq, 10)
	if fileStart {
		b = append(b, `,"file_start":true`...)
	}
	b = append(b, `,"prev_hash":`...)
	b = appendString(b, prevHash)
	return append(b, '}')
}

// appendBody appends the whole body of ev, chain members included.
func appendBody(b []byte, ev *Event) ([]byte, error) {
	b, err := appendHead(b, ev)
	if err != nil {
		return nil, err
	}
	return appendChain(b, ev.Seq, ev.FileStart, ev.PrevHash), nil
}

func appendBundles(b []byte, m map[string]Bundle) []byte {
	var small [4]string
	b = append(b, '{')
	for i, k := range sortKeys(small[:0], m) {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		if r := m[k].Revision; r != "" {
			b = append(b, `:{"revision":`...)
			b = appendString(b, r)
			b = append(b, '}')
		} else {
			b = append(b, `:{}`...)
		}
	}
	return append(b, '}')
}

func appendStrings(b []byte, s []string) []byte {
	b = append(b, '[')
	for i, v := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, v)
	}
	return append(b, ']')
}

// appendValue appends v as encoding/json would.
func appendValue(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return appendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case json.Number:
		return appendNumber(b, x)
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case int32:
		return strconv.AppendInt(b, int64(x), 10), nil
	case uint64:
		return strconv.AppendUint(b, x, 10), nil
	case *int64:
		// A metric the caller updates in place (a pooled event's timer).
		if x == nil {
			return append(b, "null"...), nil
		}
		return strconv.AppendInt(b, *x, 10), nil
	case map[string]any:
		return appendObject(b, x)
	case []any:
		return appendArray(b, x)
	case []string:
		if x == nil {
			return append(b, "null"...), nil
		}
		return appendStrings(b, x), nil
	case ASTValuer:
		if rv := reflect.ValueOf(x); rv.Kind() == reflect.Pointer && rv.IsNil() {
			return append(b, "null"...), nil
		}
		return appendAST(b, x.ASTValue())
	}
	return appendSlow(b, v)
}

// appendObject appends m with its keys sorted, as encoding/json does.
func appendObject(b []byte, m map[string]any) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	var small [16]member
	return appendMembers(b, sortMembers(small[:0], m))
}

// member is one member of an object being encoded.
type member struct {
	key   string
	value any
}

// sortMembers appends the members of m to ms (a caller's small array, so
// that most objects need no allocation) and sorts them by key in byte
// order, as encoding/json orders map keys.
func sortMembers(ms []member, m map[string]any) []member {
	for k, v := range m {
		ms = append(ms, member{k, v})
	}
	slices.SortFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
	return ms
}

func appendArray(b []byte, a []any) ([]byte, error) {
	if a == nil {
		return append(b, "null"...), nil
	}
	var err error
	b = append(b, '[')
	for i, v := range a {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = appendValue(b, v); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// sortKeys appends the keys of m to keys (a caller's small array, so that
// most objects need no allocation) and sorts them in byte order.
func sortKeys(keys []string, m map[string]Bundle) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// appendNumber appends a json.Number: "" is 0, anything that is not a
// JSON number literal is an error, as in encoding/json.
func appendNumber(b []byte, n json.Number) ([]byte, error) {
	if n == "" {
		return append(b, '0'), nil
	}
	if !isNumberLiteral(string(n)) {
		return appendSlow(b, n) // encoding/json's error
	}
	return append(b, n...), nil
}

// isNumberLiteral reports whether s is a JSON number (RFC 8259 §6).
func isNumberLiteral(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if s == "" {
			return false
		}
	}
	switch {
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = skipDigits(s[1:])
	default:
		return false
	}
	if len(s) >= 2 && s[0] == '.' && isDigit(s[1]) {
		s = skipDigits(s[2:])
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
		}
		if s == "" || !isDigit(s[0]) {
			return false
		}
		s = skipDigits(s)
	}
	return s == ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func skipDigits(s string) string {
	for s != "" && isDigit(s[0]) {
		s = s[1:]
	}
	return s
}

// appendTime appends t as time.Time.MarshalJSON does: RFC 3339 with
// nanoseconds, quoted. Years outside 0…9999 and offsets of a day or more
// are MarshalJSON's to refuse.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	_, offset := t.Zone()
	if y := t.Year(); y < 0 || y > 9999 || offset <= -24*3600 || offset >= 24*3600 {
		return appendSlow(b, t)
	}
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"'), nil
}

// appendSlow appends v with encoding/json, for the types the fast path
// does not handle.
func appendSlow(b []byte, v any) ([]byte, error) {
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

const lowerHex = "0123456789abcdef"

// appendString appends s quoted as encoding/json does without HTML
// escaping: ", \ and control characters escaped, invalid UTF-8 replaced
// by \ufffd, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		i = jsonenc.PlainPrefix(s, i)
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			b = jsonenc.AppendEscapedASCII(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', lowerHex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
