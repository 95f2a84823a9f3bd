package envelope

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

func TestDecodeEnvelope(t *testing.T) {
	cases := []struct {
		name, in string
		code     protocol.Code
		id       string
	}{
		{"ok", `{"version":1,"id":"a","action":"read_file","arguments":{}}`, "", "a"},
		{"unknown top-level member ignored", `{"version":1,"id":"a","action":"get_status","arguments":{},"extra":[1,{"x":2}]}`, "", "a"},
		{"leading whitespace", " \n{\"version\":1,\"id\":\"a\",\"action\":\"get_status\",\"arguments\":{}}", "", "a"},
		{"not an object", `[1,2]`, protocol.InvalidRequest, ""},
		{"string", `"hello"`, protocol.InvalidRequest, ""},
		{"invalid json", `{"version":1,`, protocol.InvalidRequest, ""},
		{"trailing object", `{"version":1,"id":"a","action":"get_status","arguments":{}}{}`, protocol.InvalidRequest, ""},
		{"trailing garbage", `{"version":1,"id":"a","action":"get_status","arguments":{}}xyz`, protocol.InvalidRequest, ""},
		{"invalid utf8", "{\"version\":1,\"id\":\"\xff\",\"action\":\"get_status\",\"arguments\":{}}", protocol.InvalidRequest, ""},
		{"lone surrogate escape", `{"version":1,"id":"\ud800","action":"get_status","arguments":{}}`, protocol.InvalidRequest, ""},
		{"duplicate top-level", `{"version":1,"id":"a","id":"b","action":"get_status","arguments":{}}`, protocol.InvalidRequest, ""},
		{"duplicate deep", `{"version":1,"id":"a","action":"get_status","arguments":{"x":{"y":[{"z":1,"z":2}]}}}`, protocol.InvalidRequest, ""},
		{"duplicate in unknown member", `{"version":1,"id":"a","action":"get_status","arguments":{},"meta":{"k":1,"k":1}}`, protocol.InvalidRequest, ""},
		{"duplicate by escape", `{"version":1,"id":"a","action":"get_status","arguments":{"p":1,"\u0070":2}}`, protocol.InvalidRequest, ""},
		{"version 2", `{"version":2,"id":"a","action":"get_status","arguments":{}}`, protocol.InvalidRequest, "a"},
		{"version string", `{"version":"1","id":"a","action":"get_status","arguments":{}}`, protocol.InvalidRequest, "a"},
		{"version float", `{"version":1.0,"id":"a","action":"get_status","arguments":{}}`, protocol.InvalidRequest, "a"},
		{"version missing", `{"id":"a","action":"get_status","arguments":{}}`, protocol.InvalidRequest, "a"},
		{"id empty", `{"version":1,"id":"","action":"get_status","arguments":{}}`, protocol.InvalidRequest, ""},
		{"id number", `{"version":1,"id":7,"action":"get_status","arguments":{}}`, protocol.InvalidRequest, ""},
		{"id too long", `{"version":1,"id":"` + strings.Repeat("x", 129) + `","action":"get_status","arguments":{}}`, protocol.InvalidRequest, ""},
		{"id 128 runes", `{"version":1,"id":"` + strings.Repeat("é", 128) + `","action":"get_status","arguments":{}}`, "", strings.Repeat("é", 128)},
		{"action unknown", `{"version":1,"id":"a","action":"rm_rf","arguments":{}}`, protocol.UnknownAction, "a"},
		{"action case", `{"version":1,"id":"a","action":"Read_File","arguments":{}}`, protocol.UnknownAction, "a"},
		{"action missing", `{"version":1,"id":"a","arguments":{}}`, protocol.InvalidRequest, "a"},
		{"arguments missing", `{"version":1,"id":"a","action":"get_status"}`, protocol.InvalidRequest, "a"},
		{"arguments null", `{"version":1,"id":"a","action":"get_status","arguments":null}`, protocol.InvalidRequest, "a"},
		{"arguments array", `{"version":1,"id":"a","action":"get_status","arguments":[]}`, protocol.InvalidRequest, "a"},
		{"member case variant", `{"version":1,"id":"a","action":"get_status","arguments":{},"Action":"x"}`, protocol.InvalidRequest, "a"},
		{"web agent message", `{"version":1,"id":"a","action":"web_agent_end","arguments":{}}`, "", "a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := Decode([]byte(c.in))
			if c.code == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
			} else if err == nil || err.Code != c.code {
				t.Fatalf("got %v, want %s", err, c.code)
			}
			if req.ID != c.id {
				t.Fatalf("id %q, want %q", req.ID, c.id)
			}
		})
	}
}

type edit struct {
	OldText string `json:"old_text"`
	NewText string `json:"new_text"`
}

type sampleArgs struct {
	Path   string `json:"path"`
	Limit  *int   `json:"limit"`
	Edits  []edit `json:"edits"`
	Hidden bool   `json:"include_hidden"`
}

func (a *sampleArgs) Validate() error {
	if a.Path == "" {
		return ArgumentError("The argument path is required.")
	}
	return nil
}

func TestDecodeArguments(t *testing.T) {
	cases := []struct {
		name, in string
		ok       bool
		msg      string
	}{
		{"ok", `{"path":"/x","limit":3,"edits":[{"old_text":"a","new_text":"b"}]}`, true, ""},
		{"unknown ignored", `{"path":"/x","future":{"a":1}}`, true, ""},
		{"case variant beside", `{"path":"/x","Path":"/y"}`, false, "case"},
		{"case variant alone", `{"Path":"/y"}`, false, "case"},
		{"case variant nested", `{"path":"/x","edits":[{"old_text":"a","New_Text":"b"}]}`, false, "case"},
		{"wrong type", `{"path":7}`, false, "must be a string"},
		{"wrong nested type", `{"path":"/x","edits":[{"old_text":1}]}`, false, "arguments/edits/0/old_text"},
		{"float for int", `{"path":"/x","limit":1.5}`, false, "whole number"},
		{"bool for string", `{"path":true}`, false, "must be a string"},
		{"null path is missing", `{"path":null}`, false, "required"},
		{"required", `{}`, false, "required"},
		{"not object", `[]`, false, "object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a sampleArgs
			err := DecodeArguments([]byte(c.in), &a)
			if c.ok != (err == nil) {
				t.Fatalf("err = %v, want ok=%v", err, c.ok)
			}
			if err != nil && (err.Code != protocol.InvalidRequest || !strings.Contains(err.Message, c.msg)) {
				t.Fatalf("got %s %q, want INVALID_REQUEST containing %q", err.Code, err.Message, c.msg)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"version":1,"id":"a","action":"read_file","arguments":{"path":"/x"}}`))
	f.Add([]byte(`{"version":1,"id":"a","id":"a","action":"x","arguments":{}}`))
	f.Add([]byte(`{}{}`))
	f.Add([]byte("\xff"))
	f.Fuzz(func(t *testing.T, in []byte) {
		req, err := Decode(in)
		if err != nil {
			if !err.Code.Valid() || err.Message == "" {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		if req.Version != 1 || req.ID == "" || req.Arguments.Kind() != '{' {
			t.Fatalf("accepted an invalid envelope: %+v", req)
		}
		if _, ok := protocol.Lookup(req.Action); !ok {
			t.Fatalf("accepted unknown action %q", req.Action)
		}
		var a sampleArgs
		_ = DecodeArguments(req.Arguments, &a)
	})
}

type embedded struct {
	Path string `json:"path"`
}

type withEmbedded struct {
	embedded
	Mode string `json:"mode"`
}

func TestCaseCheckSeesEmbeddedMembers(t *testing.T) {
	var a withEmbedded
	if err := DecodeArguments([]byte(`{"PATH":"/x"}`), &a); err == nil || !strings.Contains(err.Message, "case") {
		t.Fatalf("got %v", err)
	}
	if err := DecodeArguments([]byte(`{"path":"/x","mode":"m"}`), &a); err != nil || a.Path != "/x" {
		t.Fatalf("got %v %+v", err, a)
	}
}

// membersReference is how the members were decoded before the payload was
// parsed once: validated with IsValid first, then decoded.
func membersReference(payload []byte) (map[string]jsontext.Value, *protocol.Error) {
	if !jsontext.Value(payload).IsValid() {
		return nil, invalid(syntaxMessage(payload))
	}
	var members map[string]jsontext.Value
	if err := json.Unmarshal(payload, &members); err != nil {
		return nil, invalid("The request is not a valid JSON object; send one UTF-8 JSON object per message.")
	}
	return members, nil
}

// FuzzDecodeMembersAgreesWithReference holds the one-parse decode to the
// validate-then-decode reference: the same members or the same message.
func FuzzDecodeMembersAgreesWithReference(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":{"b":1,"b":2}}`, `{"a":[{"b":1,"b":2}]}`, `{"a":1} x`, `{"a":1}{}`,
		`{"a":"\ud800"}`, `{"a":1,"a":2}`, "{\"a\":\"\xff\"}", `{"a":`, `{"a":1,}`, ` {"x":[1,2,{"y":null}]} `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if checkText(in) != nil {
			return
		}
		got, gerr := decodeMembers(in)
		want, werr := membersReference(in)
		if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Message != werr.Message) {
			t.Fatalf("%q: error %v, reference %v", in, gerr, werr)
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %d members, reference %d", in, len(got), len(want))
		}
		for k, v := range want {
			if !bytes.Equal(got[k], v) {
				t.Fatalf("%q: member %q = %s, reference %s", in, k, got[k], v)
			}
		}
	})
}

// TestDuplicateMemberMessage pins the message for a duplicate member,
// told apart by jsontext.ErrDuplicateName.
func TestDuplicateMemberMessage(t *testing.T) {
	got := syntaxMessage([]byte(`{"a":{"b":1,"b":2}}`))
	if want := "The request has a duplicate member name at /a/b; send each member once."; got != want {
		t.Fatalf("message = %q, want %q", got, want)
	}
}

type taggedEdit struct {
	OldText string `json:"old_text" jsonschema:"required,minLength=1"`
	NewText string `json:"new_text" jsonschema:"required"`
}

type taggedArgs struct {
	embedded
	Encoding string       `json:"encoding" jsonschema:"enum=utf-8,enum=base64"`
	Depth    int          `json:"depth" jsonschema:"minimum=0,maximum=32"`
	Offset   *int64       `json:"offset" jsonschema:"minimum=0"`
	Name     string       `json:"name" jsonschema:"maxLength=3"`
	Edits    []taggedEdit `json:"edits" jsonschema:"required,minItems=1,maxItems=2"`
}

// TestRules checks each jsonschema tag key natively, at every depth, with
// messages that name the member by its path.
func TestRules(t *testing.T) {
	const ok = `"edits":[{"old_text":"a","new_text":"b"}]`
	cases := []struct{ name, in, msg string }{
		{"all good", `{` + ok + `,"encoding":"base64","depth":32,"offset":0,"name":"abc"}`, ""},
		{"nulls are absent", `{` + ok + `,"encoding":null,"offset":null}`, ""},
		{"required missing", `{}`, "The argument edits is required."},
		{"required null", `{"edits":null}`, "The argument edits is required."},
		{"nested required", `{"edits":[{"old_text":"hello"}]}`, "The argument edits[0].new_text is required."},
		{"nested null", `{"edits":[{"old_text":"a","new_text":"b"},{"old_text":"c","new_text":null}]}`, "edits[1].new_text is required"},
		{"nested min length", `{"edits":[{"old_text":"","new_text":"b"}]}`, "The argument edits[0].old_text must not be empty."},
		{"min items", `{"edits":[]}`, "The argument edits must hold between 1 and 2 elements."},
		{"max items", `{"edits":[{"old_text":"a","new_text":""},{"old_text":"b","new_text":""},{"old_text":"c","new_text":""}]}`, "between 1 and 2"},
		{"enum empty", `{` + ok + `,"encoding":""}`, `The argument encoding must be "utf-8" or "base64", or left out; "" is not allowed.`},
		{"enum wrong", `{` + ok + `,"encoding":"UTF-8"}`, `"UTF-8" is not allowed`},
		{"range low", `{` + ok + `,"depth":-1}`, "The argument depth must be between 0 and 32."},
		{"range high", `{` + ok + `,"depth":33}`, "between 0 and 32"},
		{"minimum through a pointer", `{` + ok + `,"offset":-5}`, "The argument offset must be at least 0."},
		{"max length counts characters", `{` + ok + `,"name":"äöü"}`, ""},
		{"max length", `{` + ok + `,"name":"abcd"}`, "The argument name must be at most 3 characters long."},
		{"wrong kind left to the decode", `{` + ok + `,"depth":"x"}`, "must be a whole number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a taggedArgs
			err := DecodeArguments([]byte(c.in), &a)
			switch {
			case c.msg == "" && err != nil:
				t.Fatalf("got %v, want success", err)
			case c.msg != "" && (err == nil || err.Code != protocol.InvalidRequest || !strings.Contains(err.Message, c.msg)):
				t.Fatalf("got %v, want INVALID_REQUEST containing %q", err, c.msg)
			}
		})
	}
}

func TestCheckType(t *testing.T) {
	if err := CheckType(reflect.TypeOf(&taggedArgs{})); err != nil {
		t.Fatal(err)
	}
	type bad struct {
		Inner []struct {
			URL string `json:"url" jsonschema:"format=uri"`
		} `json:"inner"`
	}
	if err := CheckType(reflect.TypeOf(bad{})); err == nil || !strings.Contains(err.Error(), "format") {
		t.Fatalf("got %v, want the unchecked key named", err)
	}
	type misplaced struct {
		N int `json:"n" jsonschema:"enum=1"`
	}
	if err := CheckType(reflect.TypeOf(misplaced{})); err == nil {
		t.Fatal("an enum on a number passed")
	}
}
