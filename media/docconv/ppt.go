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
// (MainMasterContainer 0x03F8) and notes (NotesContainer 0x03F0) are left
// out. Records are read by their lengths, each inside its container and
// at most pptMaxDepth deep: there are no offsets to follow and no cycle.
const (
	pptSlide         = 0x03EE
	pptNotes         = 0x03F0
	pptSlidePersist  = 0x03F3
	pptMainMaster    = 0x03F8
	pptTextHeader    = 0x0F9F
	pptTextChars     = 0x0FA0
	pptTextBytes     = 0x0FA8
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

// pptWalker collects the slides' texts from the record tree.
type pptWalker struct {
	listed  []pptSlideText // from SlideListWithTextContainer
	drawn   []pptSlideText // from the SlideContainers
	inList  bool
	typ     uint32 // the last TextHeaderAtom's text type
	records int
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
	w := &pptWalker{}
	if err := w.walk(s, 0, false); err != nil {
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
		for _, t := range sl.body {
			for _, p := range strings.Split(t, "\n") {
				if p = strings.TrimSpace(p); p != "" {
					d.add(esc(p))
				}
			}
		}
	}
	return d, nil
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
func (w *pptWalker) walk(b []byte, depth int, inSlide bool) error {
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
			if err := w.container(typ, verInst>>4, data, depth, inSlide); err != nil {
				return err
			}
			continue
		}
		w.atom(typ, data, inSlide)
	}
	return nil
}

// container walks a container's records, starting a slide where one
// begins and skipping masters and notes.
func (w *pptWalker) container(typ, inst uint16, data []byte, depth int, inSlide bool) error {
	switch typ {
	case pptMainMaster, pptNotes:
		return nil
	case pptSlide:
		w.drawn = append(w.drawn, pptSlideText{})
		return w.walk(data, depth+1, true)
	case pptSlideListText:
		if inst != 0 { // 1: masters, 2: notes
			return nil
		}
		w.inList = true
		err := w.walk(data, depth+1, false)
		w.inList = false
		return err
	}
	return w.walk(data, depth+1, inSlide)
}

// atom takes a text header, a slide's start in the list, or a text.
func (w *pptWalker) atom(typ uint16, data []byte, inSlide bool) {
	switch typ {
	case pptSlidePersist:
		if w.inList {
			w.listed = append(w.listed, pptSlideText{})
		}
	case pptTextHeader:
		if len(data) >= 4 {
			w.typ = binary.LittleEndian.Uint32(data)
		}
	case pptTextChars, pptTextBytes:
		var dst *[]pptSlideText
		switch {
		case w.inList:
			dst = &w.listed
		case inSlide:
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
