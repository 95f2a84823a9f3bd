package docconv

import (
	"encoding/binary"
	"io"
	"strings"
	"unicode/utf16"
)

// Compound File (OLE) constants ([MS-CFB] 2.1, 2.2).
const (
	cfbEndOfChain = 0xFFFFFFFE
	cfbNoStream   = 0xFFFFFFFF
	cfbMiniSector = 64
	cfbMaxDepth   = 32 // storages inside storages: an Outlook message nests a few
)

// cfbFile is a Compound File read into memory: its streams by path
// ("__attach_version1.0_#00000000/__substg1.0_3707001F").
type cfbFile struct {
	streams map[string][]byte
}

// cfbReader reads a Compound File held in memory. Every chain of sectors
// it follows is checked against a bitmap of the sectors it has already
// visited, so a FAT, DIFAT, mini FAT or directory cycle is refused after
// at most one pass over the file; the directory tree is walked once per
// entry, at most cfbMaxDepth storages deep; streams together may not hold
// more bytes than the file (a version 4 size is 64 bits: one that is
// negative as an int64 is refused, not subtracted from that budget). The work and memory are thus linear in the
// file's size whatever its header and tables claim.
type cfbReader struct {
	b       []byte
	ssz     int // sector size
	fat     []uint32
	miniFAT []uint32
	mini    []byte // the mini stream (the root entry's stream)
	dir     []byte
	// marks and miniMarks hold, for each sector, the number of the chain
	// that last visited it: one bitmap for all chains, not one each.
	marks, miniMarks []uint32
	chains           uint32
}

// visit marks sector s as visited by the current chain; false when the
// chain visited it already (a loop).
func visit(marks *[]uint32, n int, chain, s uint32) bool {
	if len(*marks) < n {
		*marks = make([]uint32, n)
	}
	if (*marks)[s] == chain {
		return false
	}
	(*marks)[s] = chain
	return true
}

func cfbCorrupt(format string, args ...any) error {
	return fail(ErrCorrupt, "the Compound File (OLE) cannot be read: "+format, args...)
}

// readCFB reads the streams of the Compound File r.
func (c *conv) readCFB(r io.ReaderAt, size int64) (*cfbFile, error) {
	b, err := readAll(r, size)
	if err != nil {
		return nil, err
	}
	x := &cfbReader{b: b}
	if err := x.header(); err != nil {
		return nil, err
	}
	return x.walk(c)
}

// header reads the header, the FAT (through the DIFAT), the directory,
// the mini FAT and the mini stream.
func (x *cfbReader) header() error {
	b := x.b
	if len(b) < 512 {
		return cfbCorrupt("it is shorter than its header")
	}
	switch shift := binary.LittleEndian.Uint16(b[30:]); shift {
	case 9, 12:
		x.ssz = 1 << shift
	default:
		return cfbCorrupt("its sector size (2^%d) is not 512 or 4096", shift)
	}
	if len(b) < x.ssz {
		return cfbCorrupt("it is shorter than its header")
	}
	fatSectors, err := x.difat()
	if err != nil {
		return err
	}
	for _, s := range fatSectors {
		sec, ok := x.sector(s)
		if !ok {
			return cfbCorrupt("a FAT sector (%d) lies outside the file", s)
		}
		for i := 0; i+4 <= len(sec); i += 4 {
			x.fat = append(x.fat, binary.LittleEndian.Uint32(sec[i:]))
		}
	}
	if x.dir, err = x.chain(binary.LittleEndian.Uint32(b[48:]), -1); err != nil {
		return err
	}
	if len(x.dir) < 128 {
		return cfbCorrupt("it has no directory")
	}
	mf, err := x.chain(binary.LittleEndian.Uint32(b[60:]), -1)
	if err != nil {
		return err
	}
	for i := 0; i+4 <= len(mf); i += 4 {
		x.miniFAT = append(x.miniFAT, binary.LittleEndian.Uint32(mf[i:]))
	}
	root, _ := x.entry(0)
	x.mini, err = x.chain(root.start, root.size)
	return err
}

// difat lists the FAT's sectors: 109 in the header, the rest in a chain
// of DIFAT sectors, each visited once.
func (x *cfbReader) difat() ([]uint32, error) {
	var out []uint32
	add := func(s uint32) {
		if s < cfbEndOfChain-2 { // not free, end, FAT or DIFAT marks
			out = append(out, s)
		}
	}
	for i := 0; i < 109; i++ {
		add(binary.LittleEndian.Uint32(x.b[76+4*i:]))
	}
	seen := map[uint32]bool{}
	for s := binary.LittleEndian.Uint32(x.b[68:]); s < cfbEndOfChain-2; {
		sec, ok := x.sector(s)
		if !ok || seen[s] {
			return nil, cfbCorrupt("its DIFAT chain loops or leaves the file")
		}
		seen[s] = true
		for i := 0; i+8 <= len(sec); i += 4 {
			add(binary.LittleEndian.Uint32(sec[i:]))
		}
		s = binary.LittleEndian.Uint32(sec[len(sec)-4:])
	}
	if len(out) > len(x.b)/x.ssz { // a DIFAT naming sectors again and again
		return nil, cfbCorrupt("it lists more FAT sectors (%d) than the file holds", len(out))
	}
	return out, nil
}

// sector returns sector s, or false when it lies outside the file.
func (x *cfbReader) sector(s uint32) ([]byte, bool) {
	off := (int64(s) + 1) * int64(x.ssz)
	if off+int64(x.ssz) > int64(len(x.b)) {
		return nil, false
	}
	return x.b[off : off+int64(x.ssz)], true
}

// chain reads the chain of sectors from start, cut to size bytes (size <
// 0: the whole chain), refusing a chain that loops or leaves the file.
func (x *cfbReader) chain(start uint32, size int64) ([]byte, error) {
	var out []byte
	x.chains++
	for s := start; s != cfbEndOfChain && s != cfbNoStream; s = x.fat[s] {
		if int(s) >= len(x.fat) || !visit(&x.marks, len(x.fat), x.chains, s) {
			return nil, cfbCorrupt("a chain of sectors loops or leaves the file (sector %d)", s)
		}
		sec, ok := x.sector(s)
		if !ok {
			return nil, cfbCorrupt("sector %d lies outside the file", s)
		}
		out = append(out, sec...)
		if size >= 0 && int64(len(out)) >= size {
			break
		}
	}
	return cut(out, size)
}

// miniChain reads a stream stored in the mini stream.
func (x *cfbReader) miniChain(start uint32, size int64) ([]byte, error) {
	var out []byte
	x.chains++
	for s := start; s != cfbEndOfChain && int64(len(out)) < size; s = x.miniFAT[s] {
		off := int64(s) * cfbMiniSector
		if int(s) >= len(x.miniFAT) || off+cfbMiniSector > int64(len(x.mini)) || !visit(&x.miniMarks, len(x.miniFAT), x.chains, s) {
			return nil, cfbCorrupt("a chain of mini sectors loops or leaves the mini stream (sector %d)", s)
		}
		out = append(out, x.mini[off:off+cfbMiniSector]...)
	}
	return cut(out, size)
}

func cut(b []byte, size int64) ([]byte, error) {
	if size < 0 {
		return b, nil
	}
	if int64(len(b)) < size {
		return nil, cfbCorrupt("a stream is shorter (%d bytes) than its directory entry says (%d)", len(b), size)
	}
	return b[:size], nil
}

// cfbEntry is one 128-byte directory entry.
type cfbEntry struct {
	name               string
	typ                byte // 1 storage, 2 stream, 5 root
	left, right, child uint32
	start              uint32
	size               int64
}

func (x *cfbReader) entry(i uint32) (cfbEntry, bool) {
	if int64(i)*128+128 > int64(len(x.dir)) {
		return cfbEntry{}, false
	}
	e := x.dir[i*128 : i*128+128]
	n := min(int(binary.LittleEndian.Uint16(e[64:])), 64) / 2
	u := make([]uint16, 0, n)
	for k := 0; k < n; k++ {
		u = append(u, binary.LittleEndian.Uint16(e[2*k:]))
	}
	size := int64(binary.LittleEndian.Uint64(e[120:]))
	if x.ssz == 512 { // version 3: the high half may hold anything
		size &= 0xFFFFFFFF
	}
	return cfbEntry{name: strings.TrimRight(string(utf16.Decode(u)), "\x00"), typ: e[66],
		left: binary.LittleEndian.Uint32(e[68:]), right: binary.LittleEndian.Uint32(e[72:]),
		child: binary.LittleEndian.Uint32(e[76:]), start: binary.LittleEndian.Uint32(e[116:]), size: size}, true
}

// walk visits the directory tree from the root, each entry once, and
// reads every stream.
func (x *cfbReader) walk(c *conv) (*cfbFile, error) {
	f := &cfbFile{streams: map[string][]byte{}}
	root, _ := x.entry(0)
	type item struct {
		id    uint32
		path  string
		depth int
	}
	seen := make([]bool, len(x.dir)/128)
	seen[0] = true
	left := int64(len(x.b))
	stack := []item{{root.child, "", 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if it.id == cfbNoStream {
			continue
		}
		e, ok := x.entry(it.id)
		if !ok || seen[it.id] {
			return nil, cfbCorrupt("its directory tree loops or names an entry it does not hold")
		}
		seen[it.id] = true
		if err := c.ctx.Err(); err != nil {
			return nil, fail(ErrLimit, "the conversion was stopped: %v", err)
		}
		stack = append(stack, item{e.left, it.path, it.depth}, item{e.right, it.path, it.depth})
		switch e.typ {
		case 1:
			if it.depth >= cfbMaxDepth {
				return nil, cfbCorrupt("its storages nest deeper than %d", cfbMaxDepth)
			}
			stack = append(stack, item{e.child, it.path + e.name + "/", it.depth + 1})
		case 2:
			if e.size < 0 || e.size > left { // a negative size would add to what is left
				return nil, cfbCorrupt("its streams claim more bytes than the file holds")
			}
			left -= e.size
			data, err := x.stream(e)
			if err != nil {
				return nil, err
			}
			f.streams[it.path+e.name] = data
		}
	}
	return f, nil
}

// stream reads a stream's bytes: from the mini stream when it is smaller
// than the cutoff (4096 bytes), else from the file's sectors.
func (x *cfbReader) stream(e cfbEntry) ([]byte, error) {
	if e.size == 0 {
		return nil, nil
	}
	if e.size < int64(binary.LittleEndian.Uint32(x.b[56:])) {
		return x.miniChain(e.start, e.size)
	}
	return x.chain(e.start, e.size)
}
