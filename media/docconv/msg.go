package docconv

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf16"

	"golang.org/x/text/encoding/charmap"
)

// MAPI property ids read from an Outlook message ([MS-OXMSG], [MS-OXPROPS]).
const (
	propSubject       = 0x0037
	propSubmitTime    = 0x0039
	propDisplayCc     = 0x0E03
	propDisplayTo     = 0x0E04
	propDeliveryTime  = 0x0E06
	propBody          = 0x1000
	propRTFCompressed = 0x1009
	propHTML          = 0x1013
	propSenderName    = 0x0C1A
	propSenderEmail   = 0x0C1F
	propSenderSMTP    = 0x5D01
	propAttachName    = 0x3001
	propAttachFile    = 0x3704
	propAttachLong    = 0x3707
)

// msgProps reads the properties of one storage of a message: its
// string and binary properties are streams named __substg1.0_IIIITTTT.
type msgProps struct {
	f      *cfbFile
	prefix string // "" or "__attach_version1.0_#00000000/"
}

// str returns a string property, Unicode (001F) or 8-bit (001E).
func (p msgProps) str(id int) string {
	if b, ok := p.f.streams[fmt.Sprintf("%s__substg1.0_%04X001F", p.prefix, id)]; ok {
		return utf16le2s(b)
	}
	if b, ok := p.f.streams[fmt.Sprintf("%s__substg1.0_%04X001E", p.prefix, id)]; ok {
		s, _ := charmap.Windows1252.NewDecoder().Bytes(b)
		return strings.TrimRight(string(s), "\x00")
	}
	return ""
}

func (p msgProps) bin(id int) []byte {
	return p.f.streams[fmt.Sprintf("%s__substg1.0_%04X0102", p.prefix, id)]
}

// timeProp reads a PT_SYSTIME property from the top-level property
// stream (__properties_version1.0: a 32-byte header, then 16-byte
// entries of tag, flags and value).
func (p msgProps) timeProp(id int) (time.Time, bool) {
	b := p.f.streams["__properties_version1.0"]
	for off := 32; off+16 <= len(b); off += 16 {
		tag := binary.LittleEndian.Uint32(b[off:])
		if tag == uint32(id)<<16|0x0040 {
			ft := int64(binary.LittleEndian.Uint64(b[off+8:]))
			const epochDiff = 116444736000000000 // 1601 to 1970 in 100 ns
			if ft <= epochDiff {
				return time.Time{}, false
			}
			return time.Unix(0, 0).UTC().Add(time.Duration(ft-epochDiff) * 100), true
		}
	}
	return time.Time{}, false
}

// msg converts an Outlook message as MarkItDown does: a heading, the
// From, To, Cc, Subject and Date lines, then the body: plain text, else
// the HTML body, else the compressed RTF body; then the names of its
// attachments.
func (c *conv) msg(f *cfbFile) (*doc, error) {
	p := msgProps{f: f}
	d := &doc{}
	d.add(heading(1, "Email Message"))
	from := p.str(propSenderName)
	if addr := firstNonEmpty(p.str(propSenderSMTP), p.str(propSenderEmail)); addr != "" && addr != from {
		from = strings.TrimSpace(from + " <" + addr + ">")
	}
	var meta []string
	for _, kv := range [][2]string{{"From", from}, {"To", p.str(propDisplayTo)}, {"Cc", p.str(propDisplayCc)}, {"Subject", p.str(propSubject)}} {
		if v := strings.TrimSpace(kv[1]); v != "" {
			meta = append(meta, "**"+kv[0]+":** "+esc(oneLine(v, 4096)))
		}
	}
	if t, ok := p.timeProp(propSubmitTime); ok {
		meta = append(meta, "**Date:** "+t.Format(time.RFC1123Z))
	} else if t, ok := p.timeProp(propDeliveryTime); ok {
		meta = append(meta, "**Date:** "+t.Format(time.RFC1123Z))
	}
	d.add(strings.Join(meta, "\n"))
	d.title = p.str(propSubject)
	d.add(heading(2, "Content"))
	if err := c.msgBody(p, d); err != nil {
		return nil, err
	}
	if names := msgAttachments(f); len(names) > 0 {
		d.add(heading(2, "Attachments"))
		for _, n := range names {
			d.item(0, 0, esc(n))
		}
	}
	return d, nil
}

// msgBody adds the message's body: plain text if it has one, else its
// HTML body through the HTML reader, else its compressed RTF body
// (decompressed, then through the RTF reader).
func (c *conv) msgBody(p msgProps, d *doc) error {
	if body := p.str(propBody); strings.TrimSpace(body) != "" {
		sub, err := c.textOf(FormatText, []byte(body))
		if err != nil {
			return err
		}
		d.flush()
		d.blocks = append(d.blocks, sub.blocks...)
		return nil
	}
	html := p.bin(propHTML)
	if html == nil {
		html = []byte(p.str(propHTML))
	}
	if len(html) > 0 {
		if dec, _, ok := decodeText(html, true, false); ok {
			html = dec
		}
		sub, err := c.html(html, "")
		if err != nil {
			return err
		}
		d.flush()
		d.blocks = append(d.blocks, sub.blocks...)
		d.warnings = append(d.warnings, sub.warnings...)
		return nil
	}
	if packed := p.bin(propRTFCompressed); len(packed) > 0 {
		rtf, err := decompressRTF(packed, c.o.Limits.Output)
		if err != nil {
			return err
		}
		sub, err := c.rtf(rtf)
		if err != nil {
			return err
		}
		d.flush()
		d.blocks = append(d.blocks, sub.blocks...)
		d.warnings = append(d.warnings, sub.warnings...)
	}
	return nil
}

// msgAttachments lists the file names of a message's attachments (the
// long name, else the short one, else the display name), in order.
func msgAttachments(f *cfbFile) []string {
	seen := map[string]bool{}
	for path := range f.streams {
		if dir, _, ok := strings.Cut(path, "/"); ok && strings.HasPrefix(dir, "__attach_version1.0_#") {
			seen[dir] = true
		}
	}
	dirs := make([]string, 0, len(seen))
	for dir := range seen {
		dirs = append(dirs, dir)
	}
	sort.Strings(dirs)
	var out []string
	for _, dir := range dirs {
		p := msgProps{f: f, prefix: dir + "/"}
		if n := firstNonEmpty(p.str(propAttachLong), p.str(propAttachFile), p.str(propAttachName)); n != "" {
			out = append(out, oneLine(n, 300))
		}
	}
	return out
}

// utf16le2s decodes UTF-16LE bytes, without a trailing NUL.
func utf16le2s(b []byte) string {
	u := make([]uint16, len(b)/2)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return strings.TrimRight(string(utf16.Decode(u)), "\x00")
}
