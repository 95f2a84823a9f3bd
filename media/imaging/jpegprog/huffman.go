package jpegprog

// table is a Huffman table made for the symbols one scan emits: its
// DHT form (counts of codes by length, values by code) and its codes.
type table struct {
	count [16]byte // count[i] codes of i+1 bits
	value []byte
	code  [256]uint32 // the code of a symbol, its length << 24 | bits
}

// optimalTable builds the table that codes symbols of the frequencies
// freq in the fewest bits, with no code longer than 16 bits and none
// made of ones only, by the procedure of T.81 Annex K.2 (libjpeg's
// jpeg_gen_optimal_table): a Huffman tree over the symbols and one
// reserved symbol, its lengths limited to 16 bits, then canonical codes.
func optimalTable(freq *[256]int) *table {
	var f [257]int
	copy(f[:], freq[:])
	f[256] = 1 // the reserved symbol keeps any code from being all ones
	size := codeSizes(&f)
	var bits [33]int
	for _, s := range size {
		if s > 0 {
			bits[s]++
		}
	}
	limitLengths(&bits)
	t := &table{}
	for l := 1; l <= 16; l++ {
		t.count[l-1] = byte(bits[l])
	}
	// The values by length, then by symbol; the reserved one (256) is
	// the last of the longest and is left out with its code.
	for l := 1; l <= 32; l++ {
		for s := 0; s < 256; s++ {
			if size[s] == l {
				t.value = append(t.value, byte(s))
			}
		}
	}
	t.assignCodes()
	return t
}

// codeSizes returns each symbol's code length in a Huffman tree over the
// symbols of nonzero frequency (Annex K, figure K.1).
func codeSizes(f *[257]int) [257]int {
	var size [257]int
	var others [257]int
	for i := range others {
		others[i] = -1
	}
	for {
		c1, c2 := leastTwo(f)
		if c2 < 0 {
			return size
		}
		f[c1] += f[c2]
		f[c2] = 0
		for c := c1; ; c = others[c] {
			size[c]++
			if others[c] < 0 {
				others[c] = c2
				break
			}
		}
		for c := c2; c >= 0; c = others[c] {
			size[c]++
		}
	}
}

// leastTwo returns the symbols of the smallest and the next smallest
// nonzero frequency (the larger symbol on a tie, as libjpeg); -1 where
// there is none.
func leastTwo(f *[257]int) (int, int) {
	c1, c2 := -1, -1
	for i, v := range f {
		if v > 0 && (c1 < 0 || v <= f[c1]) {
			c1 = i
		}
	}
	for i, v := range f {
		if v > 0 && i != c1 && (c2 < 0 || v <= f[c2]) {
			c2 = i
		}
	}
	return c1, c2
}

// limitLengths moves codes longer than 16 bits up the tree (Annex K,
// figure K.3) and removes the reserved symbol's code, the longest.
func limitLengths(bits *[33]int) {
	for i := 32; i > 16; i-- {
		for bits[i] > 0 {
			j := i - 2
			for bits[j] == 0 {
				j--
			}
			bits[i] -= 2
			bits[i-1]++
			bits[j+1] += 2
			bits[j]--
		}
	}
	i := 16
	for bits[i] == 0 {
		i--
	}
	bits[i]--
}

// assignCodes gives the values canonical codes by length (Annex C).
func (t *table) assignCodes() {
	code, k := uint32(0), 0
	for l := 1; l <= 16; l++ {
		for n := 0; n < int(t.count[l-1]); n++ {
			t.code[t.value[k]] = uint32(l)<<24 | code
			code++
			k++
		}
		code <<= 1
	}
	t.value = t.value[:k]
}
