package docgen

import (
	"encoding/binary"
	"math"
	"sort"
	"strings"
	"unicode/utf16"
)

// Stream is one stream of a Compound File, by its path of storages
// ("__attach_version1.0_#00000000/__substg1.0_3707001F").
type Stream struct {
	Path string
	Data []byte
}

// CFB layout constants.
const (
	cfbSector   = 512
	cfbMini     = 64
	cfbCutoff   = 4096
	cfbEnd      = 0xFFFFFFFE
	cfbFree     = 0xFFFFFFFF
	cfbFATSect  = 0xFFFFFFFD
	cfbNoStream = 0xFFFFFFFF
)

type cfbNode struct {
	name     string
	typ      byte // 1 storage, 2 stream, 5 root
	data     []byte
	children []int
	start    uint32
	size     uint64
}

// CFB writes a version 3 Compound File (512-byte sectors) holding the
// streams: those under 4096 bytes in the mini stream, the others in
// sectors of their own; the storages named by the paths are made. Its
// layout is the header, the FAT, the directory, the mini FAT, the mini
// stream, then the large streams (CFBLayout says where each starts).
func CFB(streams ...Stream) []byte {
	b, _ := cfbBuild(streams)
	return b
}

// CFBLayout is where CFB put its tables: the first sector of the
// directory and of the FAT, and each large stream's first sector.
type CFBLayout struct {
	FAT, Dir uint32
	Large    map[string]uint32
}

// CFBWithLayout is CFB that also says where it put things, for tests that
// damage a file on purpose.
func CFBWithLayout(streams ...Stream) ([]byte, CFBLayout) {
	return cfbBuild(streams)
}

func cfbBuild(streams []Stream) ([]byte, CFBLayout) {
	nodes := []*cfbNode{{name: "Root Entry", typ: 5}}
	dirs := map[string]int{"": 0}
	var storage func(path string) int
	storage = func(path string) int {
		if i, ok := dirs[path]; ok {
			return i
		}
		parent, name := "", path
		if k := strings.LastIndexByte(path, '/'); k >= 0 {
			parent, name = path[:k], path[k+1:]
		}
		p := storage(parent)
		nodes = append(nodes, &cfbNode{name: name, typ: 1})
		dirs[path] = len(nodes) - 1
		nodes[p].children = append(nodes[p].children, len(nodes)-1)
		return len(nodes) - 1
	}
	for _, s := range streams {
		parent, name := "", s.Path
		if k := strings.LastIndexByte(s.Path, '/'); k >= 0 {
			parent, name = s.Path[:k], s.Path[k+1:]
		}
		p := storage(parent)
		nodes = append(nodes, &cfbNode{name: name, typ: 2, data: s.Data, size: uint64(len(s.Data))})
		nodes[p].children = append(nodes[p].children, len(nodes)-1)
	}
	// The mini stream and the mini FAT.
	var mini []byte
	var miniFAT []uint32
	for _, n := range nodes {
		if n.typ != 2 || len(n.data) == 0 || len(n.data) >= cfbCutoff {
			continue
		}
		n.start = uint32(len(mini) / cfbMini)
		k := (len(n.data) + cfbMini - 1) / cfbMini
		for i := 0; i < k; i++ {
			next := uint32(len(miniFAT) + 1)
			if i == k-1 {
				next = cfbEnd
			}
			miniFAT = append(miniFAT, next)
		}
		mini = append(mini, pad(n.data, cfbMini)...)
	}
	sectors := func(n int) int { return (n + cfbSector - 1) / cfbSector }
	dirSecs := sectors(len(nodes) * 128)
	miniFATSecs := sectors(len(miniFAT) * 4)
	miniSecs := sectors(len(mini))
	rest := dirSecs + miniFATSecs + miniSecs
	for _, n := range nodes {
		if n.typ == 2 && len(n.data) >= cfbCutoff {
			rest += sectors(len(n.data))
		}
	}
	fatSecs := (rest + cfbSector/4 - 2) / (cfbSector/4 - 1)
	total := fatSecs + rest
	fat := make([]uint32, fatSecs*cfbSector/4)
	for i := range fat {
		fat[i] = cfbFree
	}
	next := fatSecs
	run := func(k int) uint32 { // k sectors in a chain from next
		if k == 0 {
			return cfbEnd
		}
		start := next
		for i := 0; i < k; i++ {
			fat[next] = uint32(next + 1)
			if i == k-1 {
				fat[next] = cfbEnd
			}
			next++
		}
		return uint32(start)
	}
	for i := 0; i < fatSecs; i++ {
		fat[i] = cfbFATSect
	}
	layout := CFBLayout{FAT: 0, Large: map[string]uint32{}}
	layout.Dir = run(dirSecs)
	miniFATStart := run(miniFATSecs)
	nodes[0].start, nodes[0].size = run(miniSecs), uint64(len(mini))
	var large [][]byte
	for i, n := range nodes {
		if n.typ == 2 && len(n.data) >= cfbCutoff {
			n.start = run(sectors(len(n.data)))
			layout.Large[pathOf(nodes, i)] = n.start
			large = append(large, pad(n.data, cfbSector))
		} else if n.typ == 1 || (n.typ == 2 && len(n.data) == 0) {
			n.start = cfbEnd
		}
	}
	out := make([]byte, cfbSector, cfbSector*(total+1))
	h := out
	copy(h, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1})
	le16(h[24:], 0x3E)
	le16(h[26:], 3)
	le16(h[28:], 0xFFFE)
	le16(h[30:], 9)
	le16(h[32:], 6)
	le32(h[44:], uint32(fatSecs))
	le32(h[48:], layout.Dir)
	le32(h[56:], cfbCutoff)
	le32(h[60:], miniFATStart)
	le32(h[64:], uint32(miniFATSecs))
	le32(h[68:], cfbEnd)
	for i := 0; i < 109; i++ {
		v := uint32(cfbFree)
		if i < fatSecs {
			v = uint32(i)
		}
		le32(h[76+4*i:], v)
	}
	out = append(out, u32s(fat)...)
	out = append(out, pad(cfbDirectory(nodes), cfbSector)...)
	mf := make([]uint32, miniFATSecs*cfbSector/4)
	for i := range mf {
		mf[i] = cfbFree
	}
	copy(mf, miniFAT)
	out = append(out, u32s(mf)...)
	out = append(out, pad(mini, cfbSector)...)
	for _, l := range large {
		out = append(out, l...)
	}
	return out, layout
}

func pathOf(nodes []*cfbNode, i int) string {
	for p, n := range nodes {
		for _, c := range n.children {
			if c == i && p != 0 {
				return pathOf(nodes, p) + "/" + nodes[i].name
			}
		}
	}
	return nodes[i].name
}

// cfbDirectory writes the directory: each storage's children chained
// as right siblings, in name order (as readers expect: shorter names
// first, then by upper case).
func cfbDirectory(nodes []*cfbNode) []byte {
	b := make([]byte, len(nodes)*128)
	for i, n := range nodes {
		e := b[i*128:]
		u := utf16.Encode([]rune(n.name))
		for k, c := range u {
			le16(e[2*k:], c)
		}
		le16(e[64:], uint16(2*len(u)+2))
		e[66], e[67] = n.typ, 1
		le32(e[68:], cfbNoStream)
		le32(e[72:], cfbNoStream)
		le32(e[76:], cfbNoStream)
		le32(e[116:], n.start)
		binary.LittleEndian.PutUint64(e[120:], n.size)
	}
	for i, n := range nodes {
		kids := append([]int(nil), n.children...)
		sort.Slice(kids, func(a, c int) bool {
			x, y := nodes[kids[a]].name, nodes[kids[c]].name
			if len(x) != len(y) {
				return len(x) < len(y)
			}
			return strings.ToUpper(x) < strings.ToUpper(y)
		})
		if len(kids) > 0 {
			le32(b[i*128+76:], uint32(kids[0]))
			for k := 0; k+1 < len(kids); k++ {
				le32(b[kids[k]*128+72:], uint32(kids[k+1]))
			}
		}
	}
	return b
}

func pad(b []byte, n int) []byte {
	if r := len(b) % n; r != 0 {
		b = append(append([]byte(nil), b...), make([]byte, n-r)...)
	}
	return b
}

func le16(b []byte, v uint16) { binary.LittleEndian.PutUint16(b, v) }
func le32(b []byte, v uint32) { binary.LittleEndian.PutUint32(b, v) }

func u32s(v []uint32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		le32(b[4*i:], x)
	}
	return b
}

// UTF16 encodes s as UTF-16LE with a terminating NUL, as Outlook stores
// its Unicode string properties.
func UTF16(s string) []byte {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u)+2)
	for i, c := range u {
		le16(b[2*i:], c)
	}
	return b
}

// Message is an Outlook message for MSG.
type Message struct {
	Subject, From, FromEmail, To, Cc, Body string
	HTML                                   string // the HTML body, stored when Body is empty
	Attachments                            []string
	// Submitted is the submit time, in seconds since 1970 (0: none).
	Submitted int64
	// CompressedRTF is the RTF body as Outlook compresses it ([MS-OXRTFCP]).
	CompressedRTF []byte
}

// MSG writes an Outlook message (.msg): a Compound File whose string
// properties are __substg1.0_ streams, its times in the property stream
// and each attachment in a storage of its own.
func MSG(m Message) []byte {
	str := func(prefix string, id uint16, s string) Stream {
		return Stream{Path: prefix + "__substg1.0_" + hex4(id) + "001F", Data: UTF16(s)}
	}
	var streams []Stream
	for _, p := range []struct {
		id uint16
		v  string
	}{{0x0037, m.Subject}, {0x0C1A, m.From}, {0x5D01, m.FromEmail}, {0x0E04, m.To}, {0x0E03, m.Cc}, {0x1000, m.Body}} {
		if p.v != "" {
			streams = append(streams, str("", p.id, p.v))
		}
	}
	if m.HTML != "" {
		streams = append(streams, Stream{Path: "__substg1.0_10130102", Data: []byte(m.HTML)})
	}
	if m.CompressedRTF != nil {
		streams = append(streams, Stream{Path: "__substg1.0_10090102", Data: m.CompressedRTF})
	}
	props := make([]byte, 32)
	if m.Submitted != 0 {
		e := make([]byte, 16)
		le32(e, 0x00390040)
		binary.LittleEndian.PutUint64(e[8:], uint64(m.Submitted*10_000_000+116444736000000000))
		props = append(props, e...)
	}
	streams = append(streams, Stream{Path: "__properties_version1.0", Data: props})
	for i, a := range m.Attachments {
		dir := "__attach_version1.0_#" + strings.ToUpper(hex8(uint32(i))) + "/"
		streams = append(streams, str(dir, 0x3707, a), Stream{Path: dir + "__substg1.0_37010102", Data: []byte("attachment bytes")})
	}
	return CFB(streams...)
}

func hex4(v uint16) string { return strings.ToUpper(hexN(uint64(v), 4)) }
func hex8(v uint32) string { return hexN(uint64(v), 8) }

func hexN(v uint64, n int) string {
	const digits = "0123456789ABCDEF"
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b)
}

// XLSSheet is one worksheet for XLS: rows of cells, each a string, a
// float64, a bool, an XLSDate (a serial day shown with a date format) or
// nil (empty).
type XLSSheet struct {
	Name string
	Rows [][]any
}

// XLSDate is a cell holding a serial day number with a date format.
type XLSDate float64

// XLSOptions change how XLS writes a workbook.
type XLSOptions struct {
	// SSTChunk cuts the shared string table into records of at most this
	// many bytes of data (0: 8224), the rest in CONTINUE records, so that
	// strings are split across them.
	SSTChunk int
	// RK writes integral numbers as RK and MULRK records, not NUMBER.
	RK bool
	// Encrypted adds a FILEPASS record, as a password-protected workbook has.
	Encrypted bool
	// SameSheet adds this many sheets (BOUNDSHEET records) that all
	// point to the first sheet's records, as a hostile workbook could.
	SameSheet int
}

// XLS writes an Excel 97–2003 workbook (BIFF8 in a Compound File's
// Workbook stream): strings in the shared string table (with characters
// beyond Latin-1 stored two bytes wide), numbers, booleans and dates.
func XLS(o XLSOptions, sheets ...XLSSheet) []byte {
	var sst []string
	index := map[string]int{}
	for _, s := range sheets {
		for _, r := range s.Rows {
			for _, c := range r {
				if v, ok := c.(string); ok {
					if _, seen := index[v]; !seen {
						index[v] = len(sst)
						sst = append(sst, v)
					}
				}
			}
		}
	}
	rec := func(typ uint16, data []byte) []byte {
		b := make([]byte, 4, 4+len(data))
		le16(b, typ)
		le16(b[2:], uint16(len(data)))
		return append(b, data...)
	}
	bof := func(kind uint16) []byte {
		d := make([]byte, 16)
		le16(d, 0x0600)
		le16(d[2:], kind)
		return rec(0x0809, d)
	}
	var glob []byte
	glob = append(glob, bof(0x0005)...)
	if o.Encrypted {
		glob = append(glob, rec(0x002F, make([]byte, 54))...)
	}
	glob = append(glob, rec(0x0022, []byte{0, 0})...)
	// XF 0: general; XF 1: a date (built-in format 14).
	for _, f := range []uint16{0, 14} {
		d := make([]byte, 20)
		le16(d[2:], f)
		glob = append(glob, rec(0x00E0, d)...)
	}
	glob = append(glob, sstRecords(sst, o.SSTChunk, rec)...)
	var boundPos []int
	for _, s := range sheets {
		boundPos = append(boundPos, len(glob))
		d := make([]byte, 6)
		d = append(d, byte(len(s.Name)), 0)
		d = append(d, s.Name...)
		glob = append(glob, rec(0x0085, d)...)
	}
	first := len(boundPos)
	for range o.SameSheet {
		boundPos = append(boundPos, len(glob))
		glob = append(glob, rec(0x0085, []byte{0, 0, 0, 0, 0, 0, 1, 0, 'D'})...)
	}
	glob = append(glob, rec(0x000A, nil)...)
	for _, p := range boundPos[first:] {
		le32(glob[p+4:], uint32(len(glob)))
	}
	boundPos = boundPos[:first]
	var body []byte
	for i, s := range sheets {
		le32(glob[boundPos[i]+4:], uint32(len(glob)+len(body)))
		body = append(body, bof(0x0010)...)
		for r, row := range s.Rows {
			for c, v := range row {
				body = append(body, xlsCell(r, c, v, index, o.RK, rec)...)
			}
		}
		body = append(body, rec(0x000A, nil)...)
	}
	return CFB(Stream{Path: "Workbook", Data: append(glob, body...)})
}

func xlsCell(r, c int, v any, index map[string]int, rk bool, rec func(uint16, []byte) []byte) []byte {
	d := make([]byte, 6)
	le16(d, uint16(r))
	le16(d[2:], uint16(c))
	switch v := v.(type) {
	case string:
		return rec(0x00FD, binary.LittleEndian.AppendUint32(d, uint32(index[v])))
	case bool:
		b := byte(0)
		if v {
			b = 1
		}
		return rec(0x0205, append(d, b, 0))
	case XLSDate:
		le16(d[4:], 1)
		return rec(0x0203, binary.LittleEndian.AppendUint64(d, math.Float64bits(float64(v))))
	case float64:
		if rk && v == math.Trunc(v) && math.Abs(v) < 1<<29 {
			m := make([]byte, 4)
			le16(m, uint16(r))
			le16(m[2:], uint16(c))
			m = append(m, 0, 0)
			m = binary.LittleEndian.AppendUint32(m, uint32(int32(v))<<2|2)
			m = append(m, 0, 0)
			le16(m[len(m)-2:], uint16(c))
			return rec(0x00BD, m)
		}
		return rec(0x0203, binary.LittleEndian.AppendUint64(d, math.Float64bits(v)))
	}
	return nil
}

// sstRecords writes the shared string table, cut into an SST record and
// CONTINUE records of at most chunk bytes; a string cut mid-characters
// goes on after an option byte, as Excel writes it.
func sstRecords(sst []string, chunk int, rec func(uint16, []byte) []byte) []byte {
	if chunk <= 0 {
		chunk = 8224
	}
	var recs [][]byte
	cur := make([]byte, 8)
	le32(cur, uint32(len(sst)))
	le32(cur[4:], uint32(len(sst)))
	flush := func() {
		recs = append(recs, cur)
		cur = nil
	}
	for _, s := range sst {
		u := utf16.Encode([]rune(s))
		wide := false
		for _, c := range u {
			wide = wide || c > 0xFF
		}
		if len(cur)+3 > chunk {
			flush()
		}
		var opt byte
		if wide {
			opt = 1
		}
		cur = append(cur, byte(len(u)), byte(len(u)>>8), opt)
		for _, c := range u {
			w := 1
			if wide {
				w = 2
			}
			if len(cur)+w > chunk {
				flush()
				cur = append(cur, opt)
			}
			if wide {
				cur = append(cur, byte(c), byte(c>>8))
			} else {
				cur = append(cur, byte(c))
			}
		}
	}
	flush()
	var out []byte
	for i, r := range recs {
		typ := uint16(0x003C)
		if i == 0 {
			typ = 0x00FC
		}
		out = append(out, rec(typ, r)...)
	}
	return out
}
