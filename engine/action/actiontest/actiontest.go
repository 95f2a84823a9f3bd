// Package actiontest holds what the feature packages' tests share about
// their actions' answers; it is imported only by tests.
package actiontest

import (
	"bytes"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/go-json-experiment/json"
)

// CheckAppender compares data's AppendJSON, alone and inside a response,
// with json.Marshal: an answer's direct encoder must agree byte for byte
// with the reference encoder.
func CheckAppender(t testing.TB, data interface {
	AppendJSON([]byte) ([]byte, error)
}) {
	t.Helper()
	want, werr := json.Marshal(data)
	got, gerr := data.AppendJSON(nil)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%+v: encoder error %v, AppendJSON error %v", data, werr, gerr)
	}
	if werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("AppendJSON %s\nencoder    %s", got, want)
	}
	resp := protocol.Success("id", data)
	wantR, _ := json.Marshal(resp)
	gotR, _ := protocol.Marshal(resp)
	if !bytes.Equal(gotR, wantR) {
		t.Fatalf("Marshal %s\nencoder %s", gotR, wantR)
	}
}
