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
	ev, err := decodeBody(body)
	if err != nil {
		return record{}, err
	}
	ev.Hash = string(sum)
	return record{ev: ev, stored: ev.Hash, computed: hashBytes(body)}, nil
}

// decodeBody decodes a canonical body, keeping numbers as json.Number so
// that an input replays with the exact values it was decided with.
func decodeBody(body []byte) (Event, error) {
	if !jsontext.Value(body).IsValid() {
		return Event{}, fmt.Errorf("%w: invalid JSON or duplicate member names", ErrMalformed)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var ev Event
	if err := dec.Decode(&ev); err != nil {
		return Event{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if ev.Hash != "" {
		return Event{}, fmt.Errorf("%w: hash member inside the body", ErrMalformed)
	}
	return ev, nil
}

func isLowerHex(b []byte) bool {
	for _, c := range b {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
