package protocol

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/jsonenc"
	"github.com/go-json-experiment/json"
)

// appenderData is data that encodes itself; a wrong AppendJSON must show
// up as a difference from json.Marshal.
type appenderData struct {
	Text string `json:"text"`
}

func (d appenderData) AppendJSON(dst []byte) ([]byte, error) {
	dst = append(dst, `{"text":`...)
	dst, err := jsonenc.AppendQuote(dst, d.Text)
	return append(dst, '}'), err
}

var responses = []*Response{
	Success("1", nil),
	Success("id \"quoted\" \\ \x01 日本", map[string]any{"a": 1}),
	Success("2", struct{}{}),
	Success("3", []int{}),
	Success("4", ""),
	Success("5", "x"),
	Success("6", struct {
		T time.Time `json:"t"`
		N *int      `json:"n"`
	}{T: time.Unix(1700000000, 5).UTC()}),
	Success("7", appenderData{Text: "line\nline\t\"q\""}),
	Success("8", appenderData{Text: "bad \xff utf-8"}),
	Success("bad id \xff", nil),
	Failure("9", Errorf(InvalidRequest, "The message %q is bad.", "x\x00")),
	{Version: 1, ID: "10", Error: &ErrorBody{Code: ActionNotAllowed, Message: "no", Rule: "deskbridge.files.deny_secret"}},
	{Version: 1, ID: "11", Error: &ErrorBody{Code: "BAD\xff", Message: "no"}},
	{Version: 1, ID: "12", Success: true, Data: appenderData{}, Error: &ErrorBody{Message: "both"}},
}

func checkMarshal(t *testing.T, resp *Response) {
	t.Helper()
	want, werr := json.Marshal(resp)
	got, gerr := AppendResponse([]byte("prefix"), resp)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%+v: encoder error %v, AppendResponse error %v", resp, werr, gerr)
	}
	if werr == nil && !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Fatalf("%+v:\nAppendResponse %s\nencoder        %s", resp, got, want)
	}
}

func TestMarshalMatchesEncoder(t *testing.T) {
	for _, resp := range responses {
		checkMarshal(t, resp)
	}
}

func FuzzMarshal(f *testing.F) {
	f.Add("1", true, "text", "CODE", "message", "")
	f.Add("\x01\"", false, "", "X\xff", "m\n", "rule")
	f.Fuzz(func(t *testing.T, id string, ok bool, text, code, msg, rule string) {
		checkMarshal(t, &Response{Version: Version, ID: id, Success: ok, Data: appenderData{Text: text}})
		checkMarshal(t, &Response{Version: Version, ID: id, Success: ok, Data: text})
		checkMarshal(t, &Response{Version: Version, ID: id, Error: &ErrorBody{Code: Code(code), Message: msg, Rule: rule}})
	})
}

// TestMarshalKeepsBigAnswers: Marshal hands a big answer's buffer to its
// caller, so the next encoding must not write into it.
func TestMarshalKeepsBigAnswers(t *testing.T) {
	big := func(c string) *Response {
		return Success("b", appenderData{Text: strings.Repeat(c, 2*handOver)})
	}
	first, err := Marshal(big("a"))
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Clone(first)
	for _, c := range []string{"b", "c", "d"} {
		if _, err := Marshal(big(c)); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(first, want) {
			t.Fatalf("encoding %q overwrote the answer Marshal returned before", c)
		}
	}
	if wantJSON, _ := json.Marshal(big("a")); !bytes.Equal(first, wantJSON) {
		t.Fatal("Marshal of a big answer differs from json.Marshal")
	}
}
