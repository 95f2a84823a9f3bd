// Package envelope decodes untrusted request payloads into v1 requests and
// their arguments, strictly.
//
// The rules (docs/protocol.md, "Wire" and "Envelope"):
//   - the payload is one JSON object, valid UTF-8, with no duplicate member
//     names at any depth and nothing after it;
//   - version is the integer 1, id a non-empty string of at most 128
//     characters, action a whitelisted name, arguments an object;
//   - unknown members are ignored, but a member whose name differs from a
//     known one only by case is refused;
//   - argument members are typed, required, ranged and enumerated by each
//     action's argument type and its Validate method.
package envelope

import (
	"bytes"
	"errors"
	"unicode/utf8"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/go-json-experiment/json/jsontext"
)

var envelopeNames = []string{"version", "id", "action", "arguments"}

// Decode parses payload into a Request. On failure it returns the id it
// could read (or "") and an INVALID_REQUEST or UNKNOWN_ACTION error.
func Decode(payload []byte) (protocol.Request, *protocol.Error) {
	var req protocol.Request
	if err := checkText(payload); err != nil {
		return req, err
	}
	members, err := decodeMembers(payload)
	if err != nil {
		return req, err
	}
	id, idErr := decodeID(members["id"])
	req.ID = id
	if err := checkCase(members, envelopeNames, ""); err != nil {
		return req, err
	}
	if err := checkEnvelope(members, idErr, &req); err != nil {
		return req, err
	}
	return req, nil
}

// checkText enforces UTF-8 and that the message is an object.
func checkText(payload []byte) *protocol.Error {
	if !utf8.Valid(payload) {
		return invalid("The message is not valid UTF-8; encode requests as UTF-8 JSON.")
	}
	trimmed := bytes.TrimLeft(payload, " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return invalid("The message must be a JSON object with version, id, action and arguments.")
	}
	return nil
}

// decodeMembers parses the object's members, enforcing the syntactic
// rules: unique names at every depth, nothing trailing. The decoder
// refuses everything jsontext.Value.IsValid refuses (with default options
// both check syntax, UTF-8 and duplicate names at every depth), so the
// payload is parsed once; only a refusal is looked at again, to word it.
func decodeMembers(payload []byte) (map[string]jsontext.Value, *protocol.Error) {
	members, err := objectMembers(payload, envelopeNames)
	if err != nil {
		if !jsontext.Value(payload).IsValid() {
			return nil, invalid(syntaxMessage(payload))
		}
		return nil, invalid("The request is not a valid JSON object; send one UTF-8 JSON object per message.")
	}
	return members, nil
}

// syntaxMessage tells a duplicate member apart from other syntax errors.
func syntaxMessage(payload []byte) string {
	err := jsontext.NewDecoder(bytes.NewReader(payload)).SkipValue()
	var se *jsontext.SyntacticError
	if errors.As(err, &se) && errors.Is(err, jsontext.ErrDuplicateName) {
		return "The request has a duplicate member name at " + pointer(se.JSONPointer) + "; send each member once."
	}
	if err == nil {
		return "The message has bytes after the JSON object; send exactly one JSON object per message."
	}
	return "The message is not valid JSON; send one JSON object per message."
}

func checkEnvelope(members map[string]jsontext.Value, idErr *protocol.Error, req *protocol.Request) *protocol.Error {
	if version := members["version"]; string(version) != "1" {
		if version == nil {
			return invalid("The request has no version; set \"version\": 1.")
		}
		return invalid("Unsupported protocol version; this host speaks version 1 only.")
	}
	req.Version = protocol.Version
	if idErr != nil {
		return idErr
	}
	action, err := decodeAction(members["action"])
	if err != nil {
		return err
	}
	req.Action = action
	args := members["arguments"]
	if args.Kind() != '{' {
		return invalid("The request's arguments must be a JSON object ({} when an action takes none).")
	}
	req.Arguments = args
	return nil
}

func decodeID(v jsontext.Value) (string, *protocol.Error) {
	id, ok := stringOf(v, nil)
	if !ok {
		return "", invalid("The request's id must be a non-empty string.")
	}
	switch n := utf8.RuneCountInString(id); {
	case n == 0:
		return "", invalid("The request's id must be a non-empty string.")
	case n > protocol.MaxIDLength:
		return "", invalid("The request's id is longer than 128 characters; use a shorter id.")
	}
	return id, nil
}

func decodeAction(v jsontext.Value) (string, *protocol.Error) {
	name, ok := stringOf(v, nil)
	if !ok {
		return "", invalid("The request's action must be a string naming a v1 action.")
	}
	if _, ok := protocol.Lookup(name); !ok {
		return "", protocol.Errorf(protocol.UnknownAction, "%s is not a v1 action; see get_status for the list of actions.", clip(name))
	}
	return name, nil
}

func invalid(msg string) *protocol.Error { return protocol.Errorf(protocol.InvalidRequest, "%s", msg) }

// clip shortens untrusted text before it is echoed in a message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func pointer(p jsontext.Pointer) string {
	if p == "" {
		return "the top level"
	}
	return clip(string(p))
}
