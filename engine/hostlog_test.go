package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/engine/action"
	"github.com/deskbridge/deskbridge/engine/protocol"
)

// An executor's error that quotes a URL reaches the host's log with the
// URL's secrets redacted, whichever executor it comes from.
func TestHostLogRedactsURLsInErrors(t *testing.T) {
	th := newTestHost(t, nil)
	var hostLog bytes.Buffer
	th.h.hostLog = &hostLog
	spec, ok := action.Lookup("get_status")
	if !ok {
		t.Fatal("get_status is not registered")
	}
	run := spec.Run
	spec.Run = func(context.Context, *action.Env, *action.Call) (any, *protocol.Error) {
		return nil, protocol.Wrap(protocol.ExecutionFailed, errors.New(`Get "https://u:CANARY-p@h.example/a?t=CANARY-q": refused`), "It failed.")
	}
	t.Cleanup(func() { spec.Run = run })
	mustCode(t, th.call(t, "get_status", map[string]any{}), string(protocol.ExecutionFailed))
	if got := hostLog.String(); strings.Contains(got, "CANARY") || !strings.Contains(got, `"https://xxxxx@h.example/a?t=xxxxx"`) {
		t.Fatalf("host log: %q", got)
	}
}
