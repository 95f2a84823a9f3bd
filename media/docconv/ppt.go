package docconv

import (
	"encoding/binary"
	"strconv"
	"strings"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// PowerPoint 97–2003 (.ppt) text, from the records of the "PowerPoint
// Document" stream ([MS-PPT] 2.3.1 RecordHeader: recVer and recInstance,
// recType, recLen; a container, recVer 0xF, holds records). The slides'
// text is in the SlideListWithTextContainer (0x0FF0) of instance 0: each
// slide a SlidePersistAtom (0x03F3) followed by its text, each text a
// TextHeaderAtom (0x0F9F: title, body…) then a TextCharsAtom (0x0FA0,
// UTF-16) or TextBytesAtom (0x0FA8, 8-bit). Files that keep the text in
// the slides' drawings instead (an OfficeArtClientTextbox in each
// SlideContainer, 0x03EE) are read from there. Master slides
// (MainMasterContainer 0x03F8) are left out. A slide's notes are the
// Notes texts (TextHeaderAtom type 2) of the NotesContainer (0x03F0) whose
// NotesAtom (0x03F1) names the slide's id (its SlidePersistAtom's slideId
// in the slide list; the slides' drawings, read in the stream's order,
// take the listed ids in order). Records are read by their lengths, each inside its container and
// at most pptMaxDepth deep: there are no offsets to follow and no cycle.
const (
	pptSlide         = 0x03EE
	pptNotes         = 0x03F0
	pptNotesAtom     = 0x03F1
	pptSlidePersist  = 0x03F3
	pptMainMaster    = 0x03F8
	pptTextHeader    = 0x0F9F
	pptTextChars     = 0x0FA0
	pptTextBytes     = 0x0FA8
	pptTypeNotes     = 2
	pptSlideListText = 0x0FF0
	pptMaxDepth      = 32
	pptMaxRecords    = 1 << 22
)

// pptSlideText is one slide's texts in order, each with its type (0
// title, 6 centred title: the slide's heading).
type pptSlideText struct {
	title string
	body  []string
}

// pptPlace is where in the record tree a text is: in a slide's drawing,
// in a notes slide, elsewhere.
type pptPlace int

const (
	pptElsewhere pptPlace = iota
	pptInSlide
	pptInNotes
)

// pptWalker collects the slides' texts and notes from the record tree.
type pptWalker struct {
	listed   []pptSlideText // from SlideListWithTextContainer
	drawn    []pptSlideText // from the SlideContainers
	slideIDs []uint32       // the listed slides' ids, in order
	notes    map[uint32][]string
	noteOf   uint32 // the slide whose notes are being read
	inList   bool
	typ      uint32 // the last TextHeaderAtom's text type
	records  int
}

// ppt converts a PowerPoint 97–2003 presentation's slides: a heading per
// slide (its title) and its other texts as paragraphs.
func (c *conv) ppt(f *cfbFile) (*doc, error) {
	s, ok := f.streams["PowerPoint Document"]
	if !ok {
		return nil, fail(ErrCorrupt, "the PowerPoint 97–2003 presentation has no PowerPoint Document stream")
	}
	if _, enc := f.streams["EncryptedSummary"]; enc {
		return nil, fail(ErrEncrypted, "the presentation is an encrypted (password-protected) PowerPoint file; save it without a password and convert that")
	}
	w := &pptWalker{notes: map[uint32][]string{}}
	if err := w.walk(s, 0, pptElsewhere); err != nil {
		return nil, err
	}
	slides := w.listed
	if pptEmpty(slides) {
		slides = w.drawn
	}
	d := &doc{}
	for i, sl := range slides {
		if !c.sel.has(i + 1) {
			continue
		}
		if d.pages >= c.o.Limits.Pages {
			d.warn("only the first %d slides were converted", c.o.Limits.Pages)
			break
		}
		d.pages++
		title := "Slide " + strconv.Itoa(i+1)
		if sl.title != "" {
			title += ": " + oneLine(sl.title, 300)
		}
		d.add(heading(2, esc(title)))
		for _, p := range pptParagraphs(sl.body) {
			d.add(p)
		}
		if notes := w.slideNotes(i); len(notes) > 0 {
			d.add(heading(3, "Notes"))
			d.add(strings.Join(notes, "\n\n"))
		}
	}
	return d, nil
}

// pptParagraphs are texts' paragraphs, escaped, empty ones left out.
func pptParagraphs(texts []string) []string {
	var out []string
	for _, t := range texts {
		for _, p := range strings.Split(t, "\n") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, esc(p))
			}
		}
	}
	return out
}

// slideNotes is the i-th slide's notes, as paragraphs. A slide id's notes
// are given once: a list naming one id for many slides (a hostile file)
// does not repeat them.
func (w *pptWalker) slideNotes(i int) []string {
	if i >= len(w.slideIDs) {
		return nil
	}
	id := w.slideIDs[i]
	notes := w.notes[id]
	delete(w.notes, id)
	return pptParagraphs(notes)
}

func pptEmpty(slides []pptSlideText) bool {
	for _, s := range slides {
		if s.title != "" || len(s.body) > 0 {
			return false
		}
	}
	return true
}

// walk reads the records of b, a container's data at depth.
func (w *pptWalker) walk(b []byte, depth int, in pptPlace) error {
	if depth > pptMaxDepth {
		return pptCorrupt("its records nest deeper than %d", pptMaxDepth)
	}
	for len(b) >= 8 {
		verInst := binary.LittleEndian.Uint16(b)
		typ := binary.LittleEndian.Uint16(b[2:])
		n := binary.LittleEndian.Uint32(b[4:])
		if uint64(n) > uint64(len(b)-8) {
			return pptCorrupt("a record (type 0x%04X) is longer than its container", typ)
		}
		if w.records++; w.records > pptMaxRecords {
			return pptCorrupt("it holds more than %d records", pptMaxRecords)
		}
		data := b[8 : 8+n]
		b = b[8+n:]
		if verInst&0x000F == 0x000F {
			if err := w.container(typ, verInst>>4, data, depth, in); err != nil {
				return err
			}
			continue
		}
		w.atom(typ, data, in)
	}
	return nil
}

// container walks a container's records, starting a slide or a notes
// slide where one begins and skipping masters.
func (w *pptWalker) container(typ, inst uint16, data []byte, depth int, in pptPlace) error {
	switch typ {
	case pptMainMaster:
		return nil
	case pptNotes:
		w.noteOf = 0
		return w.walk(data, depth+1, pptInNotes)
	case pptSlide:
		w.drawn = append(w.drawn, pptSlideText{})
		return w.walk(data, depth+1, pptInSlide)
	case pptSlideListText:
		if inst != 0 { // 1: masters, 2: notes
			return nil
		}
		w.inList = true
		err := w.walk(data, depth+1, pptElsewhere)
		w.inList = false
		return err
	}
	return w.walk(data, depth+1, in)
}

// atom takes a text header, a slide's start in the list, a notes slide's
// slide, or a text.
func (w *pptWalker) atom(typ uint16, data []byte, in pptPlace) {
	switch typ {
	case pptSlidePersist:
		if w.inList {
			w.listed = append(w.listed, pptSlideText{})
			id := uint32(0)
			if len(data) >= 16 {
				id = binary.LittleEndian.Uint32(data[12:])
			}
			w.slideIDs = append(w.slideIDs, id)
		}
	case pptNotesAtom:
		if in == pptInNotes && len(data) >= 4 {
			w.noteOf = binary.LittleEndian.Uint32(data)
		}
	case pptTextHeader:
		if len(data) >= 4 {
			w.typ = binary.LittleEndian.Uint32(data)
		}
	case pptTextChars, pptTextBytes:
		if in == pptInNotes {
			if w.typ == pptTypeNotes && w.noteOf != 0 {
				w.notes[w.noteOf] = append(w.notes[w.noteOf], pptText(typ, data))
			}
			w.typ = 4
			return
		}
		var dst *[]pptSlideText
		switch {
		case w.inList:
			dst = &w.listed
		case in == pptInSlide:
			dst = &w.drawn
		default:
			return
		}
		if len(*dst) == 0 {
			return
		}
		text := pptText(typ, data)
		s := &(*dst)[len(*dst)-1]
		if (w.typ == 0 || w.typ == 6) && s.title == "" {
			s.title = text
		} else {
			s.body = append(s.body, text)
		}
		w.typ = 4 // a text without its header is "other"
	}
}

// pptText decodes a text atom: UTF-16 or 8-bit characters, paragraphs
// apart by CR and lines by VT.
func pptText(typ uint16, data []byte) string {
	var s string
	if typ == pptTextChars {
		u := make([]uint16, len(data)/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(data[2*i:])
		}
		s = string(utf16.Decode(u))
	} else {
		b, _ := charmap.Windows1252.NewDecoder().Bytes(data)
		s = string(b)
	}
	return strings.NewReplacer("\r", "\n", "\v", "\n").Replace(s)
}

func pptCorrupt(format string, args ...any) error {
	return fail(ErrCorrupt, "the PowerPoint 97–2003 presentation cannot be read: "+format, args...)
}
