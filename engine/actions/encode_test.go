package actions

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox"
	"github.com/go-json-experiment/json"
)

// checkAppender compares data's AppendJSON, alone and inside a response,
// with json.Marshal: the direct encoders must agree byte for byte.
func checkAppender(t *testing.T, data interface {
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

var appenderEntries = []sandbox.Entry{
	{Name: "a.txt", Path: "/w/a.txt", Type: "file", Size: 12, Modified: time.Unix(1700000000, 123456789).UTC()},
	{Name: "dir \"q\"", Path: "/w/dir \"q\"", Type: "folder", Modified: time.Unix(1700000000, 0).UTC()},
	{Name: "日本\n", Path: `C:\w\日本`, Type: "symlink"},
}

func TestDataAppendersMatchEncoder(t *testing.T) {
	for _, d := range []readFileData{
		{}, {Content: "hello", Size: 5, Encoding: encUTF8, SHA256: strings.Repeat("0", 64)},
		{Content: "a\"b\\c\n\x01", Size: 1 << 40, Encoding: encBase64, Offset: 7, Truncated: true, NextOffset: 99},
		{Content: "bad \xff", Encoding: encUTF8},
	} {
		checkAppender(t, d)
	}
	for _, d := range []listData{
		{}, {Entries: []sandbox.Entry{}}, {Entries: appenderEntries, Truncated: true},
		{Entries: []sandbox.Entry{{Name: "bad \xff"}}},
		{Entries: []sandbox.Entry{{Name: "y", Modified: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}},
	} {
		checkAppender(t, d)
	}
	for _, d := range []convertDocumentData{
		{}, {Markdown: "# T\n\n| a | b |\n", Format: "pdf", Title: "T \"q\"", Pages: 3, Warnings: []string{}, Bytes: 17},
		{Markdown: "日本\x01<&>", Truncated: true, Warnings: []string{"w1", "w\n2"}, OCRPages: []int{1, 7}, Path: `C:\w\a.md`, Bytes: 1 << 40},
		{Markdown: "bad \xff"}, {Title: "bad \xff"}, {Warnings: []string{"bad \xff"}}, {Path: "bad \xff"},
		{OCRPages: []int{}, Warnings: nil, Pages: -1},
	} {
		checkAppender(t, d)
	}
}

func FuzzDataAppenders(f *testing.F) {
	f.Add("content", "name", int64(1), int64(1700000000), true)
	f.Fuzz(func(t *testing.T, content, name string, n, sec int64, b bool) {
		checkAppender(t, readFileData{Content: content, Size: n, Encoding: name, Offset: n, Truncated: b, NextOffset: -n})
		e := sandbox.Entry{Name: name, Path: "/" + name, Type: content, Size: n, Modified: time.Unix(sec, n).UTC()}
		checkAppender(t, listData{Entries: []sandbox.Entry{e, e}, Truncated: b})
		checkAppender(t, convertDocumentData{Markdown: content, Format: name, Title: content, Pages: int(n), Truncated: b,
			Warnings: []string{name, content}, OCRPages: []int{int(n)}, Path: name, Bytes: sec})
	})
}
