package docgen

import (
	"encoding/binary"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// DOCOptions shape a generated Word 97–2003 document.
type DOCOptions struct {
	// Compressed stores the text 8-bit (Windows-1252, FcCompressed bit
	// 30) rather than UTF-16.
	Compressed bool
	// Pieces splits the text into this many pieces (at least 1), written
	// in the stream in reverse order, as fast saves leave them.
	Pieces int
	// PieceFC, when not nil, replaces the stored place (FcCompressed) of
	// piece i, as a damaged or hostile file may hold.
	PieceFC func(i int, fc uint32) uint32
	// ClxLen, when not 0, replaces the Clx's size in the FIB (lcbClx).
	ClxLen uint32
	// Extra are more streams of the file (an embedded object's).
	Extra []Stream
}

// DOC writes a Word 97–2003 document (.doc) whose main text is text
// (paragraphs ending in CR, [MS-DOC] 2.4.1): a WordDocument stream that
// starts with a FIB (FibBase, fibRgW, fibRgLw97 with ccpText,
// fibRgFcLcb97 with fcClx/lcbClx, [MS-DOC] 2.5.1), the text after it, and
// a 1Table stream holding the Clx: a Prc, then the Pcdt's piece table
// ([MS-DOC] 2.9.38).
func DOC(text string, o DOCOptions) []byte {
	u := utf16.Encode([]rune(text))
	n := max(o.Pieces, 1)
	const fibLen = 32 + 2 + 14*2 + 2 + 22*4 + 2 + 93*8
	wd := make([]byte, fibLen)
	le16(wd[0:], 0xA5EC) // wIdent
	le16(wd[2:], 0x00C1) // nFib: Word 97
	le16(wd[10:], 0x0200)
	le16(wd[32:], 14) // csw
	le16(wd[62:], 22) // cslw
	le32(wd[64+12:], uint32(len(u)))
	le16(wd[152:], 93) // cbRgFcLcb
	// The pieces, last first in the stream.
	cps := make([]uint32, n+1)
	for i := range n + 1 {
		cps[i] = uint32(len(u) * i / n)
	}
	fcs := make([]uint32, n)
	for i := n - 1; i >= 0; i-- {
		part := u[cps[i]:cps[i+1]]
		if o.Compressed {
			fcs[i] = uint32(len(wd))*2 | 0x40000000
			b, err := charmap.Windows1252.NewEncoder().Bytes([]byte(string(utf16.Decode(part))))
			if err != nil {
				panic("docgen.DOC: compressed text must be Windows-1252: " + err.Error())
			}
			wd = append(wd, b...)
		} else {
			fcs[i] = uint32(len(wd))
			for _, c := range part {
				wd = binary.LittleEndian.AppendUint16(wd, c)
			}
		}
		if o.PieceFC != nil {
			fcs[i] = o.PieceFC(i, fcs[i])
		}
	}
	plc := make([]byte, 0, 4*(n+1)+8*n)
	for _, cp := range cps {
		plc = binary.LittleEndian.AppendUint32(plc, cp)
	}
	for _, fc := range fcs {
		plc = append(plc, 0, 0)
		plc = binary.LittleEndian.AppendUint32(plc, fc)
		plc = append(plc, 0, 0)
	}
	tbl := []byte("table stream: style sheet and other tables\x00")
	fcClx := uint32(len(tbl))
	tbl = append(tbl, 0x01, 2, 0, 0xAA, 0xBB) // a Prc of two bytes
	tbl = append(tbl, 0x02)
	tbl = binary.LittleEndian.AppendUint32(tbl, uint32(len(plc)))
	tbl = append(tbl, plc...)
	lcbClx := uint32(len(tbl)) - fcClx
	if o.ClxLen != 0 {
		lcbClx = o.ClxLen
	}
	pair := 154 + 8*33
	le32(wd[pair:], fcClx)
	le32(wd[pair+4:], lcbClx)
	return CFB(append([]Stream{{"WordDocument", wd}, {"1Table", tbl}}, o.Extra...)...)
}

// PPTSlide is one slide of a generated presentation: its title, its
// body texts (paragraphs apart by "\r") and its notes.
type PPTSlide struct {
	Title string
	Body  []string
	Notes string
	// ID, when not 0, replaces the slide's id (256 + its index), as a
	// hostile file may repeat one.
	ID uint32
}

// PPT records ([MS-PPT] 2.3.1 RecordHeader and the record types).
const (
	pptDocument      = 0x03E8
	pptSlide         = 0x03EE
	pptNotes         = 0x03F0
	pptNotesAtom     = 0x03F1
	pptSlidePersist  = 0x03F3
	pptMainMaster    = 0x03F8
	pptTextHeader    = 0x0F9F
	pptTextChars     = 0x0FA0
	pptTextBytes     = 0x0FA8
	pptSlideListText = 0x0FF0
)

// PPTRecord is a record: an atom (Data) or a container (Children).
type PPTRecord struct {
	Type     uint16
	Instance uint16
	Data     []byte
	Children []PPTRecord
	// Len, when not 0, replaces the record's stored length, as a damaged
	// or hostile file may hold.
	Len uint32
}

// Bytes encodes the record and its children.
func (r PPTRecord) Bytes() []byte {
	data, ver := r.Data, uint16(0)
	if r.Children != nil {
		ver = 0xF
		data = nil
		for _, c := range r.Children {
			data = append(data, c.Bytes()...)
		}
	}
	h := make([]byte, 8)
	le16(h, ver|r.Instance<<4)
	le16(h[2:], r.Type)
	n := uint32(len(data))
	if r.Len != 0 {
		n = r.Len
	}
	le32(h[4:], n)
	return append(h, data...)
}

// PPTDocument is the DocumentContainer of a presentation whose slides'
// text is in its SlideListWithTextContainer ([MS-PPT] 2.4.14.3): for each
// slide a SlidePersistAtom (its slideId), then a TextHeaderAtom (0 title,
// 1 body) and a TextCharsAtom (UTF-16) or, for text of Latin-1
// characters, a TextBytesAtom; a main master whose placeholder text is
// not the slides'; and for each slide with notes a NotesContainer: a
// NotesAtom naming the slide's id, a notes-master-like placeholder
// (TextHeaderAtom 4, "*") and the notes (TextHeaderAtom 2).
func PPTDocument(slides []PPTSlide) PPTRecord {
	list := PPTRecord{Type: pptSlideListText, Children: []PPTRecord{}}
	var notes []PPTRecord
	for i, s := range slides {
		id := s.ID
		if id == 0 {
			id = 256 + uint32(i)
		}
		persist := make([]byte, 20)
		persist[0] = byte(i + 1)
		binary.LittleEndian.PutUint32(persist[12:], id)
		list.Children = append(list.Children, PPTRecord{Type: pptSlidePersist, Data: persist})
		if s.Notes != "" {
			atom := PPTRecord{Type: pptNotesAtom, Data: binary.LittleEndian.AppendUint32(nil, id)}
			kids := append([]PPTRecord{atom}, pptText(4, "*")...)
			notes = append(notes, PPTRecord{Type: pptNotes, Children: append(kids, pptText(2, s.Notes)...)})
		}
		list.Children = append(list.Children, pptText(0, s.Title)...)
		for _, b := range s.Body {
			list.Children = append(list.Children, pptText(1, b)...)
		}
	}
	master := PPTRecord{Type: pptMainMaster, Children: pptText(0, "Click to edit Master title style")}
	doc := PPTRecord{Type: pptDocument, Children: []PPTRecord{list}}
	return PPTRecord{Type: 0, Children: append([]PPTRecord{doc, master}, notes...)}
}

func pptText(typ uint32, s string) []PPTRecord {
	h := PPTRecord{Type: pptTextHeader, Data: binary.LittleEndian.AppendUint32(nil, typ)}
	latin := true
	for _, r := range s {
		if r > 0xFF {
			latin = false
		}
	}
	if latin {
		b := make([]byte, 0, len(s))
		for _, r := range s {
			b = append(b, byte(r))
		}
		return []PPTRecord{h, {Type: pptTextBytes, Data: b}}
	}
	var b []byte
	for _, c := range utf16.Encode([]rune(s)) {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return []PPTRecord{h, {Type: pptTextChars, Data: b}}
}

// PPT writes a PowerPoint 97–2003 presentation (.ppt): a Compound File
// whose "PowerPoint Document" stream holds the records (the top record's
// children, one after another).
func PPT(top PPTRecord) []byte {
	var s []byte
	for _, c := range top.Children {
		s = append(s, c.Bytes()...)
	}
	return CFB(Stream{"PowerPoint Document", s}, Stream{"Current User", make([]byte, 20)})
}
