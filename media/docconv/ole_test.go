package docconv_test

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/docgen"
	"github.com/deskbridge/deskbridge/media/docconv"
)

// orchardMessage is the message the MSG tests read.
var orchardMessage = docgen.Message{
	Subject: "Harvest report – week 48", From: "Ada Appleby", FromEmail: "ada@example.com",
	To: "Ben Pear; Cy Plum", Cc: "Dee Quince",
	Body:        "The apples are in.\r\n\r\nPears follow next week: 1,200 kg.",
	Attachments: []string{"yields.xlsx", "map of the orchard.pdf"},
	Submitted:   1764936000, // 2025-12-05 12:00:00 UTC
}

// TestMSG: an Outlook message becomes a heading, its From, To, Cc,
// Subject and Date lines, its body and its attachments' names, as
// MarkItDown's Outlook converter writes them.
func TestMSG(t *testing.T) {
	r := mustConvert(t, docgen.MSG(orchardMessage), docconv.Options{})
	want := "# Email Message\n\n**From:** Ada Appleby \\<ada@example.com\\>\n**To:** Ben Pear; Cy Plum\n**Cc:** Dee Quince\n" +
		"**Subject:** Harvest report – week 48\n**Date:** Fri, 05 Dec 2025 12:00:00 +0000\n\n## Content\n\n" +
		"The apples are in.\n\nPears follow next week: 1,200 kg.\n\n## Attachments\n\n- yields.xlsx\n- map of the orchard.pdf\n"
	if r.Format != "msg" || r.Markdown != want || r.Title != orchardMessage.Subject {
		t.Fatalf("format %s title %q, got\n%s\nwant\n%s", r.Format, r.Title, r.Markdown, want)
	}
}

// TestMSGHTMLBody: a message with only an HTML body is read through the
// HTML reader (its links and emphasis kept, its style left out).
func TestMSGHTMLBody(t *testing.T) {
	m := docgen.Message{Subject: "Links", HTML: `<html><head><style>p{color:red}</style></head><body><p>See <b>the</b> <a href="https://example.com/o">orchard</a>.</p></body></html>`}
	r := mustConvert(t, docgen.MSG(m), docconv.Options{})
	wantIn(t, r.Markdown, "**Subject:** Links", "See **the** [orchard](https://example.com/o).")
	if strings.Contains(r.Markdown, "color") {
		t.Fatalf("style kept:\n%s", r.Markdown)
	}
}

// TestMSGCompressedRTF: a message whose body is only compressed RTF
// (here [MS-OXRTFCP]'s example) is decompressed and read as RTF.
func TestMSGCompressedRTF(t *testing.T) {
	packed := []byte{0x2d, 0x00, 0x00, 0x00, 0x2b, 0x00, 0x00, 0x00, 0x4c, 0x5a, 0x46, 0x75, 0xf1, 0xc5, 0xc7, 0xa7,
		0x03, 0x00, 0x0a, 0x00, 0x72, 0x63, 0x70, 0x67, 0x31, 0x32, 0x35, 0x42, 0x32, 0x0a, 0xf3, 0x20,
		0x68, 0x65, 0x6c, 0x09, 0x00, 0x20, 0x62, 0x77, 0x05, 0xb0, 0x6c, 0x64, 0x7d, 0x0a, 0x80, 0x0f, 0xa0}
	r := mustConvert(t, docgen.MSG(docgen.Message{Subject: "RTF", CompressedRTF: packed}), docconv.Options{})
	wantIn(t, r.Markdown, "## Content\n\nhello world\n")
}

// TestMSGLargeBody: a body of 4096 bytes or more lives in sectors of its
// own, not the mini stream; it is read whole.
func TestMSGLargeBody(t *testing.T) {
	m := docgen.Message{Subject: "Long", Body: strings.Repeat("apple ", 2000) + "END"}
	r := mustConvert(t, docgen.MSG(m), docconv.Options{})
	wantIn(t, r.Markdown, "apple apple", "END")
}

// orchardSheets is the workbook the XLS tests read.
var orchardSheets = []docgen.XLSSheet{
	{Name: "Yields", Rows: [][]any{
		{"Tree", "Kilos", "Picked", "Organic"},
		{"Bramley", 120.5, docgen.XLSDate(46000), true},
		{"Conférence", 80.0, docgen.XLSDate(46001.5), false},
		{"りんご", -3.0, nil, true},
	}},
	{Name: "Notes", Rows: [][]any{{"A note"}, {nil, 7.0}}},
}

// TestXLS: each worksheet becomes a heading and a table: shared strings
// (Latin-1 and two-byte), numbers, booleans and dates by their formats.
func TestXLS(t *testing.T) {
	want := "## Yields\n\n| Tree | Kilos | Picked | Organic |\n| --- | --- | --- | --- |\n| Bramley | 120.5 | 2025-12-09 | TRUE |\n" +
		"| Conférence | 80 | 2025-12-10 12:00:00 | FALSE |\n| りんご | -3 |  | TRUE |\n\n## Notes\n\n| A note |  |\n| --- | --- |\n|  | 7 |\n"
	for _, o := range []docgen.XLSOptions{{}, {RK: true}, {SSTChunk: 20}} {
		r := mustConvert(t, docgen.XLS(o, orchardSheets...), docconv.Options{})
		if r.Format != "xls" || r.Markdown != want || r.Pages != 2 {
			t.Fatalf("%+v: format %s pages %d, got\n%s\nwant\n%s", o, r.Format, r.Pages, r.Markdown, want)
		}
	}
}

// TestXLSStringsAcrossContinue: strings of the shared string table cut
// mid-characters into CONTINUE records (each going on after an option
// byte, one- or two-byte wide) are read whole, in order.
func TestXLSStringsAcrossContinue(t *testing.T) {
	var rows [][]any
	for i := range 40 {
		rows = append(rows, []any{strings.Repeat(string(rune('a'+i%26)), 30+i), "é" + strings.Repeat("日", i)})
	}
	r := mustConvert(t, docgen.XLS(docgen.XLSOptions{SSTChunk: 97}, docgen.XLSSheet{Name: "S", Rows: rows}), docconv.Options{})
	for _, row := range rows {
		wantIn(t, r.Markdown, "| "+row[0].(string)+" | "+row[1].(string)+" |")
	}
}

// TestXLSEncrypted: a password-protected workbook (FILEPASS) fails saying
// it is encrypted.
func TestXLSEncrypted(t *testing.T) {
	_, err := convert(t, docgen.XLS(docgen.XLSOptions{Encrypted: true}, orchardSheets...), docconv.Options{})
	wantKind(t, err, docconv.ErrEncrypted, "encrypted")
}

// TestXLSCellCap: a workbook's cells count against the document's cap.
func TestXLSCellCap(t *testing.T) {
	o := docconv.Options{Limits: docconv.DefaultLimits}
	o.Limits.Cells = 10
	_, err := convert(t, docgen.XLS(docgen.XLSOptions{}, orchardSheets...), o)
	wantKind(t, err, docconv.ErrLimit, "cells")
}

// hostileCFB are Compound Files damaged as an attacker would: each must
// fail as corrupt, quickly, within the converter's caps.
func hostileCFB(t *testing.T) map[string][]byte {
	big := docgen.Message{Subject: "s", Body: strings.Repeat("x", 6000)}
	fatAt := func(b []byte, sector uint32) []byte { return b[512+4*sector:] }
	out := map[string][]byte{}

	b, l := docgen.CFBWithLayout(docgen.Stream{Path: "__substg1.0_0037001F", Data: docgen.UTF16("s")})
	binary.LittleEndian.PutUint32(fatAt(b, l.Dir), l.Dir) // the directory's chain loops on itself
	out["directory-loop.msg"] = b

	b, l = docgen.CFBWithLayout(docgen.Stream{Path: "__substg1.0_1000001F", Data: docgen.UTF16(big.Body)})
	s := l.Large["__substg1.0_1000001F"]
	binary.LittleEndian.PutUint32(fatAt(b, s+3), s) // a stream's chain turns back to its start
	out["stream-loop.msg"] = b

	b = docgen.MSG(orchardMessage)
	binary.LittleEndian.PutUint32(b[44:], 0xFFFFFFF0) // a header claiming 4 billion FAT sectors
	for i := 0; i < 109; i++ {
		binary.LittleEndian.PutUint32(b[76+4*i:], uint32(i))
	}
	out["huge-fat.msg"] = b

	b = docgen.MSG(orchardMessage)
	binary.LittleEndian.PutUint32(b[68:], 0) // a DIFAT chain of one sector that points to itself
	binary.LittleEndian.PutUint32(b[72:], 1)
	binary.LittleEndian.PutUint32(b[512+508:], 0)
	out["difat-loop.msg"] = b

	b = docgen.MSG(orchardMessage) // 200 DIFAT sectors each naming FAT sector 0 127 times
	first := uint32(len(b)/512 - 1)
	for i := range 200 {
		sec := make([]byte, 512)
		binary.LittleEndian.PutUint32(sec[508:], first+uint32(i)+1)
		if i == 199 {
			binary.LittleEndian.PutUint32(sec[508:], 0xFFFFFFFE)
		}
		b = append(b, sec...)
	}
	binary.LittleEndian.PutUint32(b[68:], first)
	binary.LittleEndian.PutUint32(b[72:], 200)
	out["difat-repeats.msg"] = b

	b, l = docgen.CFBWithLayout(docgen.Stream{Path: "Workbook", Data: docgen.XLS(docgen.XLSOptions{}, orchardSheets...)})
	d := b[512*(int(l.Dir)+1):]
	binary.LittleEndian.PutUint32(d[128+120:], 0x7FFFFFFF) // a stream claiming 2 GiB
	out["huge-stream.xls"] = b

	b = docgen.CFB(docgen.Stream{Path: "__substg1.0_0037001F", Data: docgen.UTF16(strings.Repeat("s", 100))})
	miniFAT := 512 * (int(binary.LittleEndian.Uint32(b[60:])) + 1)
	binary.LittleEndian.PutUint32(b[miniFAT+4*2:], 0) // the subject's 3rd mini sector (of 4) leads back to its 1st
	out["mini-loop.msg"] = b

	b = docgen.MSG(orchardMessage)
	out["truncated.msg"] = b[:len(b)/2]

	return out
}

// TestHostileCompoundFiles: loops in the FAT, the DIFAT and the
// directory, a DIFAT naming one FAT sector 25,000 times, a stream or a FAT claiming more than the file, a file cut
// in half, a directory tree that loops and storages nested 10,000 deep
// are refused as corrupt (and the corpus files under
// testdata/documents/hostile too).
func TestHostileCompoundFiles(t *testing.T) {
	cases := hostileCFB(t)
	for _, name := range []string{"ole-directory-cycle.msg", "ole-deep-storages.msg", "ole-cross-linked.xls", "ole-v4-negative-size.doc"} {
		cases[name] = corpus(t, name)
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := docconv.Convert(context.Background(), bytes.NewReader(b), int64(len(b)), docconv.Options{OCR: docconv.OCRNever})
			wantKind(t, err, docconv.ErrCorrupt, "Compound File")
		})
	}
}

// TestXLSSample: a workbook Excel wrote (from mscfb's test files) is read
// sheet by sheet.
func TestXLSSample(t *testing.T) {
	b, err := os.ReadFile("../../testdata/documents/samples/mscfb-test.xls")
	if err != nil {
		t.Fatal(err)
	}
	r := mustConvert(t, b, docconv.Options{})
	want := "## Test sheet 1\n\n| Test1 | Lorem | Ipsum |\n| --- | --- | --- |\n| Avocado | 1 | 2 |\n|  | 3 | 5 |\n|  | 4 | 7 |\n\n## Test sheet 2\n\n| Test2 |\n| --- |\n\n## Sheet3\n"
	if r.Format != "xls" || r.Markdown != want {
		t.Fatalf("format %s, got\n%s\nwant\n%s", r.Format, r.Markdown, want)
	}
}

// TestXLSSheetsReadOnce: sheets whose offsets point into a part of the
// workbook already read (here 3,000 sheets all at the first one's offset)
// are not read again: the work stays linear in the workbook's size.
func TestXLSSheetsReadOnce(t *testing.T) {
	r := mustConvert(t, docgen.XLS(docgen.XLSOptions{SameSheet: 3000}, orchardSheets[0]), docconv.Options{})
	if n := strings.Count(r.Markdown, "| Bramley |"); n != 1 || len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "overlaps") {
		t.Fatalf("the sheet was read %d times; warnings %q", n, r.Warnings)
	}
}
