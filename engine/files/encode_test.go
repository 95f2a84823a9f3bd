package files

import (
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/engine/action/actiontest"
	"github.com/deskbridge/deskbridge/engine/textenc"
	"github.com/deskbridge/deskbridge/sandbox"
)

var appenderEntries = []sandbox.Entry{
	{Name: "a.txt", Path: "/w/a.txt", Type: "file", Size: 12, Modified: time.Unix(1700000000, 123456789).UTC()},
	{Name: "dir \"q\"", Path: "/w/dir \"q\"", Type: "folder", Modified: time.Unix(1700000000, 0).UTC()},
	{Name: "日本\n", Path: `C:\w\日本`, Type: "symlink"},
}

func TestDataAppendersMatchEncoder(t *testing.T) {
	for _, d := range []readFileData{
		{}, {Content: "hello", Size: 5, Encoding: textenc.UTF8, SHA256: strings.Repeat("0", 64)},
		{Content: "a\"b\\c\n\x01", Size: 1 << 40, Encoding: textenc.Base64, Offset: 7, Truncated: true, NextOffset: 99},
		{Content: "bad \xff", Encoding: textenc.UTF8},
	} {
		actiontest.CheckAppender(t, d)
	}
	for _, d := range []listData{
		{}, {Entries: []sandbox.Entry{}}, {Entries: appenderEntries, Truncated: true},
		{Entries: []sandbox.Entry{{Name: "bad \xff"}}},
		{Entries: []sandbox.Entry{{Name: "y", Modified: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}}},
	} {
		actiontest.CheckAppender(t, d)
	}
}

func FuzzDataAppenders(f *testing.F) {
	f.Add("content", "name", int64(1), int64(1700000000), true)
	f.Fuzz(func(t *testing.T, content, name string, n, sec int64, b bool) {
		actiontest.CheckAppender(t, readFileData{Content: content, Size: n, Encoding: name, Offset: n, Truncated: b, NextOffset: -n})
		e := sandbox.Entry{Name: name, Path: "/" + name, Type: content, Size: n, Modified: time.Unix(sec, n).UTC()}
		actiontest.CheckAppender(t, listData{Entries: []sandbox.Entry{e, e}, Truncated: b})
	})
}
