package docconv

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"strings"
	"testing"
)

// realDOC reads the .doc LibreOffice wrote (see
// testdata/documents/samples/README.md) into its streams, and its FIB.
func realDOC(t *testing.T) (*cfbFile, docFIB) {
	t.Helper()
	b, err := os.ReadFile("../../testdata/documents/samples/libreoffice-orchard.doc")
	if err != nil {
		t.Fatal(err)
	}
	c := &conv{ctx: context.Background(), o: Options{Limits: DefaultLimits}}
	f, err := c.readCFB(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	fib, ok := docFib(f.streams["WordDocument"])
	if !ok {
		t.Fatal("no FIB")
	}
	return f, fib
}

// docTableOf is the table stream's bytes that FIB pair i names.
func docTableOf(t *testing.T, f *cfbFile, fib docFIB, i int) []byte {
	t.Helper()
	fc, lcb := fib.pair(i)
	tbl := f.streams["1Table"]
	if lcb == 0 || int(fc+lcb) > len(tbl) {
		t.Fatalf("pair %d names no table", i)
	}
	return tbl[fc : fc+lcb]
}

// TestDOCFormattingHostile: a real .doc whose formatting tables are
// damaged keeps its text, as paragraphs, with a warning: a PlcBtePapx
// naming a page past the WordDocument stream, a style sheet whose first
// style runs past its end.
// Nothing is read out of range.
func TestDOCFormattingHostile(t *testing.T) {
	cases := []struct {
		name  string
		patch func(f *cfbFile, fib docFIB)
	}{
		{"papx page outside the stream", func(f *cfbFile, fib docFIB) {
			plc := docTableOf(t, f, fib, docBtePapxPair)
			n := (len(plc) - 4) / 8
			for k := range n {
				binary.LittleEndian.PutUint32(plc[4*(n+1)+4*k:], 0x3FFFFF)
			}
		}},
		{"style larger than the style sheet", func(f *cfbFile, fib docFIB) {
			stsh := docTableOf(t, f, fib, docStshPair)
			cbStshi := int(binary.LittleEndian.Uint16(stsh))
			binary.LittleEndian.PutUint16(stsh[2+cbStshi:], 0xFFF0)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, fib := realDOC(t)
			tc.patch(f, fib)
			c := &conv{ctx: context.Background(), o: Options{Limits: DefaultLimits}}
			d, err := c.doc97(f)
			if err != nil {
				t.Fatal(err)
			}
			md := d.result("doc", 1<<20).Markdown
			if len(d.warnings) != 1 || !strings.Contains(d.warnings[0], "styles and list formatting were not read") {
				t.Fatalf("warnings %q", d.warnings)
			}
			for _, w := range []string{"Orchard Report", "Grown on the south wall", "Cooking apples in October", "Conference", "cold store"} {
				if !strings.Contains(md, w) {
					t.Fatalf("%q lost:\n%s", w, md)
				}
			}
			if strings.Contains(md, "# ") || strings.Contains(md, "- ") {
				t.Fatalf("formatting read from a damaged table:\n%s", md)
			}
		})
	}
}

// TestDOCPapxPagesReadOnce: a PlcBtePapx naming one FKP page 100,000
// times reads it once, so the work stays linear in the file's size.
func TestDOCPapxPagesReadOnce(t *testing.T) {
	f, fib := realDOC(t)
	wd := f.streams["WordDocument"]
	one, err := docPapxRuns(wd, docTableOf(t, f, fib, docBtePapxPair))
	if err != nil || len(one) == 0 {
		t.Fatalf("the real file's runs: %d, %v", len(one), err)
	}
	orig := docTableOf(t, f, fib, docBtePapxPair)
	pn := binary.LittleEndian.Uint32(orig[len(orig)-4:])
	const n = 100_000
	plc := make([]byte, 4*(n+1)+4*n)
	for k := range n {
		binary.LittleEndian.PutUint32(plc[4*k:], uint32(k))
		binary.LittleEndian.PutUint32(plc[4*(n+1)+4*k:], pn)
	}
	runs, err := docPapxRuns(wd, plc)
	if err != nil || len(runs) > 101 {
		t.Fatalf("one page named %d times gave %d runs (%v)", n, len(runs), err)
	}
}

// TestDOCFkpBounds: an FKP page whose count of paragraphs would put its
// entries past the page, PAPX offsets past the page, a PAPX whose size
// runs past the page and Sprms whose operands run past their PAPX are
// read no further than the page and the PAPX.
func TestDOCFkpBounds(t *testing.T) {
	page := make([]byte, docFkpSize)
	page[docFkpSize-1] = 255 // cpara: 256 FCs and 255 BxPap do not fit
	if runs := docFkpRuns(page); runs != nil {
		t.Fatalf("cpara 255 gave %d runs", len(runs))
	}
	page[docFkpSize-1] = 1
	binary.LittleEndian.PutUint32(page[0:], 100)
	binary.LittleEndian.PutUint32(page[4:], 200)
	page[8] = 250 // the PAPX at byte 500, 79 bytes long
	page[500] = 40
	if runs := docFkpRuns(page); len(runs) != 1 || runs[0].istd != 0 {
		t.Fatalf("a PAPX past the page was read: %+v", runs)
	}
	// A PAPX of istd 5, then sprmPIlfo whose operand is cut, at offset 400.
	page[8] = 200
	copy(page[400:], []byte{2, 5, 0, 0x0B})
	if runs := docFkpRuns(page); len(runs) != 1 || runs[0].istd != 5 || runs[0].ilfo != 0 {
		t.Fatalf("a cut Sprm was read: %+v", runs)
	}
	var r docRun
	docSprms(&r, []byte{0x08, 0xD6, 0xFF, 0xFF, 1, 2}) // sprmTDefTable claiming 65,536 bytes
	docSprms(&r, []byte{0x15, 0xC6, 0xFF})             // sprmPChgTabs claiming 256
	if r != (docRun{}) {
		t.Fatalf("operands past the PAPX were read: %+v", r)
	}
}

// TestDOCListBounds: list tables whose counts claim more than they hold
// give no lists (their items are bullets), never a read past the table.
func TestDOCListBounds(t *testing.T) {
	f, fib := realDOC(t)
	if lists := docListLevels(f.streams["1Table"], fib); len(lists) == 0 {
		t.Fatal("the real file's lists were not read")
	}
	lst := docTableOf(t, f, fib, docLstPair)
	binary.LittleEndian.PutUint16(lst, 0x7FFF) // cLst past the PlfLst
	if lists := docListLevels(f.streams["1Table"], fib); lists != nil {
		t.Fatalf("cLst 32,767 gave %d lists", len(lists))
	}
	f, fib = realDOC(t)
	lfo := docTableOf(t, f, fib, docLfoPair)
	binary.LittleEndian.PutUint32(lfo, 0x7FFFFFFF) // lfoMac past the PlfLfo
	if lists := docListLevels(f.streams["1Table"], fib); lists != nil {
		t.Fatalf("lfoMac 2^31-1 gave %d lists", len(lists))
	}
	if _, _, ok := docLVL(append(make([]byte, 24), 200, 200, 0, 0)); ok {
		t.Fatal("an LVL whose property groups run past the table was read")
	}
	if _, _, ok := docLVL(append(make([]byte, 28), 200, 0)); ok {
		t.Fatal("an LVL whose number text runs past the table was read")
	}
}

// TestDOCStyleSheetBounds: a style sheet of 65,535 styles in a few bytes
// reads the styles it holds; a style name longer than its STD is no name.
func TestDOCStyleSheetBounds(t *testing.T) {
	stsh := []byte{4, 0, 0xFF, 0xFF, 10, 0, 2, 0, 1, 0}
	levels, err := docHeadings(stsh)
	if err != nil || len(levels) != 1 || levels[0] != 1 {
		t.Fatalf("levels %v, %v", levels, err)
	}
	std := make([]byte, 14)
	binary.LittleEndian.PutUint16(std, 0x0FFE)
	binary.LittleEndian.PutUint16(std[10:], 60) // a 60-character name in 2 bytes
	if lvl := docStyleHeading(std, 10); lvl != 0 {
		t.Fatalf("a name past its STD gave heading %d", lvl)
	}
	name := []byte{9, 0}
	for _, r := range "heading 4" {
		name = append(name, byte(r), 0)
	}
	if lvl := docStyleHeading(append(std[:10:10], name...), 10); lvl != 4 {
		t.Fatalf(`"heading 4" by name gave %d`, lvl)
	}
}
