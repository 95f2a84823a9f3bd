package docconv

import (
	"encoding/binary"
)

// lzfuPrebuf is the dictionary's initial text ([MS-OXRTFCP] 2.1.2.1).
const lzfuPrebuf = "{\\rtf1\\ansi\\mac\\deff0\\deftab720{\\fonttbl;}{\\f0\\fnil \\froman \\fswiss \\fmodern \\fscript \\fdecor MS Sans SerifSymbolArialTimes New RomanCourier{\\colortbl\\red0\\green0\\blue0\r\n\\par \\pard\\plain\\f0\\fs20\\b\\i\\u\\tab\\tx"

// decompressRTF decodes Outlook's compressed RTF ([MS-OXRTFCP]): a
// 16-byte header (sizes, "LZFu" or "MELA", CRC), then runs of a control
// byte and eight literal bytes or two-byte references into a 4 KiB
// dictionary. Its output is capped at the raw size the header declares
// and at max bytes; a reference can give at most 17 bytes for 2, so the
// work stays linear in the input.
func decompressRTF(b []byte, max int) ([]byte, error) {
	if len(b) < 16 {
		return nil, fail(ErrCorrupt, "the message's compressed RTF body is shorter than its header")
	}
	raw := int(min(binary.LittleEndian.Uint32(b[4:]), uint32(max)))
	switch string(b[8:12]) {
	case "MELA": // stored uncompressed
		return b[16:min(len(b), 16+raw)], nil
	case "LZFu":
	default:
		return nil, fail(ErrCorrupt, "the message's compressed RTF body is of no known kind")
	}
	var dict [4096]byte
	w := copy(dict[:], lzfuPrebuf)
	out := make([]byte, 0, min(raw, 9*len(b)))
	in := b[16:]
	for i := 0; i < len(in) && len(out) < raw; {
		ctl := in[i]
		i++
		for bit := 0; bit < 8 && i < len(in) && len(out) < raw; bit++ {
			if ctl&(1<<bit) == 0 {
				dict[w], w = in[i], (w+1)%len(dict)
				out = append(out, in[i])
				i++
				continue
			}
			if i+1 >= len(in) {
				return out, nil
			}
			ref := int(in[i])<<8 | int(in[i+1])
			i += 2
			off, n := ref>>4, ref&15+2
			if off == w {
				return out, nil // the end mark
			}
			for k := 0; k < n && len(out) < raw; k++ {
				c := dict[(off+k)%len(dict)]
				dict[w], w = c, (w+1)%len(dict)
				out = append(out, c)
			}
		}
	}
	return out, nil
}
