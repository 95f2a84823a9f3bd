package documents

import (
	"testing"

	"github.com/deskbridge/deskbridge/engine/action/actiontest"
)

// TestDocumentAppenderMatchesEncoder: the converted document's answer,
// quoted straight into the response, is what the reference encoder
// writes.
func TestDocumentAppenderMatchesEncoder(t *testing.T) {
	for _, d := range []convertDocumentData{
		{}, {Markdown: "# T\n\n| a | b |\n", Format: "pdf", Title: "T \"q\"", Pages: 3, Warnings: []string{}, Bytes: 17},
		{Markdown: "日本\x01<&>", Truncated: true, Warnings: []string{"w1", "w\n2"}, OCRPages: []int{1, 7}, Path: `C:\w\a.md`, Bytes: 1 << 40},
		{Markdown: "bad \xff"}, {Title: "bad \xff"}, {Warnings: []string{"bad \xff"}}, {Path: "bad \xff"},
		{OCRPages: []int{}, Warnings: nil, Pages: -1},
	} {
		actiontest.CheckAppender(t, d)
	}
}

func FuzzDocumentAppender(f *testing.F) {
	f.Add("content", "name", int64(1), int64(1700000000), true)
	f.Fuzz(func(t *testing.T, content, name string, n, sec int64, b bool) {
		actiontest.CheckAppender(t, convertDocumentData{Markdown: content, Format: name, Title: content, Pages: int(n), Truncated: b,
			Warnings: []string{name, content}, OCRPages: []int{int(n)}, Path: name, Bytes: sec})
	})
}
