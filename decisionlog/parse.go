package decisionlog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"
)

// ErrMalformed reports a line that is not a decision-log event.
var ErrMalformed = errors.New("decisionlog: malformed line")

// record is one parsed line: the event, the hash it claims and the hash of
// its body as computed here.
type record struct {
	ev       Event
	stored   string
	computed string
	absent   absent // members the line leaves out (compact.go)
}

// absent marks members a line does not have, where an empty value and
// no member mean different things (expand.go).
type absent uint8

const (
	absentLabels absent = 1 << iota
	absentRequestID
	absentAction
	absentOrigin
)

// wireEvent is an Event as a line holds it: the members whose absence
// counts are pointers.
type wireEvent struct {
	Event
	Labels    *Labels `json:"labels"`
	RequestID *string `json:"request_id"`
	Action    *string `json:"action"`
	Origin    *string `json:"origin"`
}

// event is the Event of w and the members it lacks.
func (w *wireEvent) event() (Event, absent) {
	ev, a := w.Event, absent(0)
	set := func(p *string, dst *string, bit absent) {
		if p == nil {
			a |= bit
			return
		}
		*dst = *p
	}
	if w.Labels == nil {
		a |= absentLabels
	} else {
		ev.Labels = *w.Labels
	}
	set(w.RequestID, &ev.RequestID, absentRequestID)
	set(w.Action, &ev.Action, absentAction)
	set(w.Origin, &ev.Origin, absentOrigin)
	return ev, a
}

// intact reports whether the line's claimed hash is the hash of its body.
func (r *record) intact() bool { return r.stored == r.computed }

// parseLine parses one line (without its '\n'). The line must end with the
// hash member, its body must be one JSON object with unique member names,
// and the body must not carry a hash member of its own.
func parseLine(line []byte) (record, error) {
	if len(line) < trailerLen+2 || line[0] != '{' {
		return record{}, fmt.Errorf("%w: too short or not an object", ErrMalformed)
	}
	tail := line[len(line)-trailerLen:]
	sum := tail[len(hashPrefix) : len(hashPrefix)+hashLen]
	if !bytes.HasPrefix(tail, []byte(hashPrefix)) || !bytes.HasSuffix(tail, []byte(hashSuffix)) || !isLowerHex(sum) {
		return record{}, fmt.Errorf("%w: no trailing hash member", ErrMalformed)
	}
	body := make([]byte, 0, len(line)-trailerLen+1)
	body = append(append(body, line[:len(line)-trailerLen]...), '}')
	if len(body) == 2 {
		return record{}, fmt.Errorf("%w: empty object", ErrMalformed)
	}
	ev, a, err := decodeBody(body)
	if err != nil {
		return record{}, err
	}
	ev.Hash = string(sum)
	return record{ev: ev, stored: ev.Hash, computed: hashBytes(body), absent: a}, nil
}

// decodeBody decodes a canonical body, keeping numbers as json.Number so
// that an input replays with the exact values it was decided with.
func decodeBody(body []byte) (Event, absent, error) {
	if !jsontext.Value(body).IsValid() {
		return Event{}, 0, fmt.Errorf("%w: invalid JSON or duplicate member names", ErrMalformed)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var w wireEvent
	if err := dec.Decode(&w); err != nil {
		return Event{}, 0, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if w.Hash != "" {
		return Event{}, 0, fmt.Errorf("%w: hash member inside the body", ErrMalformed)
	}
	ev, a := w.event()
	return ev, a, nil
}

func isLowerHex(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
