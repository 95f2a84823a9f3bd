package engine

import (
	"context"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/deskbridge/deskbridge/engine/wire"
	"github.com/deskbridge/deskbridge/protocol"
)

// FuzzHandle feeds arbitrary payloads through the whole pipeline: every
// response is a well-formed v1 response with a valid code, and nothing
// panics (a recovered panic would show as INTERNAL_ERROR, which fails).
func FuzzHandle(f *testing.F) {
	th := newTestHost(f, map[string]any{"decision_log": map[string]any{"disabled": true}})
	f.Add([]byte(`{"version":1,"id":"a","action":"get_status","arguments":{}}`))
	f.Add([]byte(`{"version":1,"id":"a","action":"read_file","arguments":{"path":"/"}}`))
	f.Add([]byte(`{"version":1,"id":"a","action":"list_folder","arguments":{"path":"` + th.ws + `","recursive":true}}`))
	f.Add([]byte(`{"version":1,"id":"a","action":"patch_file","arguments":{"path":"` + th.ws + `/x","edits":[{"old_text":"a","new_text":"b"}]}}`))
	f.Add([]byte(`{"version":1,"id":"a","action":"create_folder","arguments":{"path":"` + th.ws + `/d","parents":true}}`))
	f.Add([]byte(`{"version":1,"id":"a","action":"write_file","arguments":{"path":"` + th.ws + `/f","content":"x","encoding":"base64"}}`))
	f.Add([]byte(`{"version":1,"id":"a","id":"b"}`))
	f.Add([]byte("\xff"))
	f.Fuzz(func(t *testing.T, payload []byte) {
		resp := th.h.Handle(context.Background(), payload)
		b, err := Encode(resp)
		if err != nil {
			t.Fatalf("encoding the response: %v", err)
		}
		if len(b) > wire.MaxPayload {
			t.Fatalf("response of %d bytes", len(b))
		}
		var r result
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("response %s: %v", b, err)
		}
		switch {
		case r.Version != protocol.Version:
			t.Fatalf("version %d", r.Version)
		case r.Success && (r.Error != nil || r.Data == nil):
			t.Fatalf("success with error or without data: %s", b)
		case !r.Success && (r.Error == nil || !protocol.Code(r.Error.Code).Valid() || r.Error.Message == ""):
			t.Fatalf("failure without a valid code and message: %s", b)
		case !r.Success && r.Error.Code == string(protocol.InternalError):
			t.Fatalf("internal error (a panic?) for %q", payload)
		}
	})
}
