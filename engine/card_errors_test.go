package engine

import (
	"fmt"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/deskbridge/deskbridge/protocol"
)

// checkOnCard fails t when r, the answer to payload, is a failure whose
// code the action's card does not list (protocol.CommonErrors and the
// card's Errors). Every request a test of this package sends through
// testHost.handle (the vectors, the hostile-path table, the attack and
// limit tables, each action's own tests) passes it, so a code an action
// answers in any of them and its card leaves out fails that test. It
// proves the cards cover what the tests reach; a path no test takes is
// not covered.
func checkOnCard(t testing.TB, payload []byte, r result) {
	t.Helper()
	if err := offCard(payload, r); err != nil {
		t.Error(err)
	}
}

// offCard returns an error naming the action and the code when r is a
// failure its card does not list; nil otherwise, and for a request that
// names no v1 action (UNKNOWN_ACTION, a payload that is no request).
func offCard(payload []byte, r result) error {
	if r.Success || r.Error == nil {
		return nil
	}
	var req struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(payload, &req) != nil {
		return nil
	}
	card, ok := protocol.Card(req.Action)
	if !ok || card.Answers(protocol.Code(r.Error.Code)) {
		return nil
	}
	return fmt.Errorf("%s answered %s (%s), which its card does not list: add it to the card's Errors in protocol/actions.go, then make generate",
		req.Action, r.Error.Code, r.Error.Message)
}

// TestAnswersAreOnTheCard: an answer whose code is not on the action's
// card is caught (so checkOnCard, which every handled request passes, can
// fail), and the common codes and the card's own pass.
func TestAnswersAreOnTheCard(t *testing.T) {
	failure := func(code protocol.Code) result {
		var r result
		r.Error = &struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Rule    string `json:"rule"`
		}{Code: string(code)}
		return r
	}
	readFile := []byte(`{"version":1,"id":"x","action":"read_file","arguments":{}}`)
	if offCard(readFile, failure(protocol.DownloadTooLarge)) == nil {
		t.Error("read_file answering DOWNLOAD_TOO_LARGE passed the card check")
	}
	for _, code := range append([]protocol.Code{protocol.FileNotFound, protocol.WorkspaceViolation}, protocol.CommonErrors...) {
		if err := offCard(readFile, failure(code)); err != nil {
			t.Error(err)
		}
	}
	th := newTestHost(t, nil)
	r := th.call(t, "read_file", map[string]any{"path": th.ws + "/missing.txt"})
	mustCode(t, r, string(protocol.FileNotFound))
}
