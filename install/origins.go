package install

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// errNotEditable says a configuration's text is not a JSON object whose
// allowed_origins, if present, is a list of strings: install then prints
// the fix rather than rewrite a file it does not understand.
var errNotEditable = errors.New("it is not a JSON object with allowed_origins as a list of strings")

// withOrigins returns the configuration text doc with every origin of
// origins it does not list yet appended to its allowed_origins list (the
// member is added first in the object when there is none), and the
// origins it added. Every other byte of doc is kept as it was: members,
// order, indentation and line ends.
func withOrigins(doc []byte, origins []string) ([]byte, []string, error) {
	spot, listed, err := originsSpot(doc)
	if err != nil {
		return nil, nil, err
	}
	var add []string
	for _, o := range origins {
		if !slices.Contains(listed, o) && !slices.Contains(add, o) {
			add = append(add, o)
		}
	}
	if len(add) == 0 {
		return doc, nil, nil
	}
	var text bytes.Buffer
	for i, o := range add {
		if i > 0 || spot.listNotEmpty {
			text.WriteString(", ")
		}
		text.WriteString(strconv.Quote(o))
	}
	insert := text.String()
	if spot.newMember {
		insert = "\n  \"allowed_origins\": [" + insert + "]"
		if spot.objectNotEmpty {
			insert += ","
		}
	}
	out := slices.Concat(doc[:spot.offset], []byte(insert), doc[spot.offset:])
	return out, add, nil
}

// insertion is where withOrigins writes: after the last element of the
// allowed_origins list, or, for a new member, just after the object's
// opening brace.
type insertion struct {
	offset         int64
	newMember      bool
	listNotEmpty   bool
	objectNotEmpty bool
}

// originsSpot reads doc token by token and returns where origins go and
// the origins allowed_origins lists already.
func originsSpot(doc []byte) (insertion, []string, error) {
	if !jsontext.Value(doc).IsValid() {
		return insertion{}, nil, errNotEditable
	}
	dec := jsontext.NewDecoder(bytes.NewReader(doc))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return insertion{}, nil, errNotEditable
	}
	spot := insertion{offset: dec.InputOffset(), newMember: true, objectNotEmpty: dec.PeekKind() != '}'}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return insertion{}, nil, errNotEditable
		}
		if name.String() != "allowed_origins" {
			if err := dec.SkipValue(); err != nil {
				return insertion{}, nil, errNotEditable
			}
			continue
		}
		return listSpot(dec)
	}
	return spot, nil, nil
}

// listSpot reads the allowed_origins list, dec being just before it.
func listSpot(dec *jsontext.Decoder) (insertion, []string, error) {
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '[' {
		return insertion{}, nil, errNotEditable
	}
	spot := insertion{offset: dec.InputOffset()}
	var listed []string
	for dec.PeekKind() != ']' {
		tok, err := dec.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return insertion{}, nil, errNotEditable
		}
		listed = append(listed, tok.String())
		spot.offset, spot.listNotEmpty = dec.InputOffset(), true
	}
	return spot, listed, nil
}

// addOriginsFix is the line install prints when it cannot add origins to
// the configuration at path itself.
func addOriginsFix(path string, origins []string, why error) string {
	return fmt.Sprintf("FIX  configuration %s: add %s to its allowed_origins (%v), or the host refuses the extension", path, quoteAll(origins), why)
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
