package jpegprog

// scan is one scan of the progressive script: its components and the
// band of zig-zag coefficients it carries, ss to se (0 to 0 for the DC
// scan). Successive approximation is not used: each band is sent whole.
type scan struct {
	comps  []*component
	ss, se int
}

// script is the order the scans are written in, as libjpeg's default
// progressive script without its refinement scans: every component's DC
// first, then the luma's lowest AC frequencies, each chroma's, and the
// rest of the luma's.
func script(comps []*component) []scan {
	if len(comps) == 1 {
		return []scan{{comps, 0, 0}, {comps, 1, 5}, {comps, 6, 63}}
	}
	y, cb, cr := comps[:1], comps[1:2], comps[2:3]
	return []scan{{comps, 0, 0}, {y, 1, 5}, {cb, 1, 63}, {cr, 1, 63}, {y, 6, 63}}
}

// tableOf returns the index of the table component i of a scan codes
// with: a DC scan has one for the luma and one for the chroma; an AC
// scan, of one component, one.
func (s scan) tableOf(i int) int {
	if s.ss == 0 && i > 0 {
		return 1
	}
	return 0
}

// sink takes the symbols of a scan: a counting pass learns their
// frequencies, a writing pass codes them.
type sink interface {
	symbol(t int, s byte)
	bits(v uint32, n uint32)
}

// counter counts each table's symbols.
type counter struct{ freq [2][256]int }

func (c *counter) symbol(t int, s byte)    { c.freq[t][s]++ }
func (c *counter) bits(v uint32, n uint32) {}

// coder writes each symbol with its table's code.
type coder struct {
	e      *encoder
	tables [2]*table
}

func (c *coder) symbol(t int, s byte) {
	x := c.tables[t].code[s]
	c.e.emit(x&(1<<24-1), x>>24)
}

func (c *coder) bits(v uint32, n uint32) {
	if n > 0 {
		c.e.emit(v&(1<<n-1), n)
	}
}

// magnitude returns a coefficient's size category and its extra bits
// (T.81 F.1.2.1: the value, or its ones' complement when negative).
func magnitude(v int32) (uint32, uint32) {
	a, b := v, v
	if a < 0 {
		a, b = -v, v-1
	}
	n := uint32(0)
	for a > 0 {
		n++
		a >>= 1
	}
	return n, uint32(b)
}

// emit sends the scan's symbols to out.
func (s scan) emit(out sink) {
	if s.ss == 0 {
		s.emitDC(out)
		return
	}
	c := s.comps[0]
	var eobrun uint32
	for by := 0; by < c.rows; by++ {
		for bx := 0; bx < c.cols; bx++ {
			eobrun = emitAC(out, c.block(bx, by), s.ss, s.se, eobrun)
		}
	}
	emitEOBRun(out, eobrun)
}

// emitDC sends the DC differences of the scan's components, MCU by MCU
// when there are several (each its h×v blocks), block by block for one.
func (s scan) emitDC(out sink) {
	prev := make([]int32, len(s.comps))
	dc := func(i int, b []int16) {
		n, x := magnitude(int32(b[0]) - prev[i])
		out.symbol(s.tableOf(i), byte(n))
		out.bits(x, n)
		prev[i] = int32(b[0])
	}
	if len(s.comps) == 1 {
		c := s.comps[0]
		for by := 0; by < c.rows; by++ {
			for bx := 0; bx < c.cols; bx++ {
				dc(0, c.block(bx, by))
			}
		}
		return
	}
	mcux, mcuy := s.comps[1].cols, s.comps[1].rows
	for my := 0; my < mcuy; my++ {
		for mx := 0; mx < mcux; mx++ {
			for i, c := range s.comps {
				h, v := int(c.hv>>4), int(c.hv&15)
				for y := 0; y < v; y++ {
					for x := 0; x < h; x++ {
						dc(i, c.block(mx*h+x, my*v+y))
					}
				}
			}
		}
	}
}

// maxEOBRun is the longest run of end-of-bands one symbol codes
// (EOB14 and 14 extra bits).
const maxEOBRun = 1<<15 - 1

// emitAC sends a block's coefficients ss to se in a first AC scan
// (T.81 G.1.2.2): runs of zeros before each nonzero one, and the bands
// that end in zeros counted in eobrun, sent as one end-of-bands run
// before the next nonzero coefficient. It returns the run pending.
func emitAC(out sink, b []int16, ss, se int, eobrun uint32) uint32 {
	run := 0
	for k := ss; k <= se; k++ {
		if b[k] == 0 {
			run++
			continue
		}
		eobrun = emitEOBRun(out, eobrun)
		for ; run > 15; run -= 16 {
			out.symbol(0, 0xf0)
		}
		n, x := magnitude(int32(b[k]))
		out.symbol(0, byte(run<<4)|byte(n))
		out.bits(x, n)
		run = 0
	}
	if run > 0 {
		eobrun++
		if eobrun == maxEOBRun {
			eobrun = emitEOBRun(out, eobrun)
		}
	}
	return eobrun
}

// emitEOBRun sends a pending end-of-bands run (EOBn: n the run's bit
// length less one, then its low n bits) and returns 0.
func emitEOBRun(out sink, eobrun uint32) uint32 {
	if eobrun == 0 {
		return 0
	}
	n, _ := magnitude(int32(eobrun))
	n--
	out.symbol(0, byte(n<<4))
	out.bits(eobrun, n)
	return 0
}
