package docconv

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	utf16 "golang.org/x/text/encoding/unicode"
)

// candidate is an encoding text without a declared one may be in, and
// the test its decoded text must pass to be believed: the share of its
// non-ASCII characters that belong to the scripts the encoding is for.
type candidate struct {
	name   string
	enc    encoding.Encoding
	script func(rune) bool
	share  float64
	// kana: the text must show kana (Han alone is as likely Chinese).
	kana bool
}

func isKana(r rune) bool { return r >= 0x3040 && r <= 0x30FF || r >= 0xFF61 && r <= 0xFF9F }

func isJapanese(r rune) bool {
	return isKana(r) || unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF
}

func isHangul(r rune) bool {
	return unicode.Is(unicode.Hangul, r) || r >= 0x3000 && r <= 0x303F || r >= 0xFF00 && r <= 0xFFEF
}

// candidates are tried in order; windows-1252, which decodes nearly any
// byte, comes last.
var candidates = []candidate{
	{"Shift_JIS", japanese.ShiftJIS, isJapanese, 0.95, true},
	{"EUC-JP", japanese.EUCJP, isJapanese, 0.95, true},
	{"EUC-KR", korean.EUCKR, isHangul, 0.95, false},
	{"GBK", simplifiedchinese.GBK, isCJK, 0.95, false},
	{"Big5", traditionalchinese.Big5, isCJK, 0.95, false},
	{"windows-1252", charmap.Windows1252, func(r rune) bool { return true }, 1, false},
}

// decodeText returns b as UTF-8: as it is when it is UTF-8, else decoded
// from a UTF-16 byte-order mark, from the encoding an HTML document
// declares (html), or from the first candidate whose decoding is
// plausible text. assumed names the candidate guessed ("" for UTF-8, a
// byte-order mark or a declared encoding); ok is false when no encoding
// gives text.
func decodeText(b []byte, html, partial bool) (out []byte, assumed string, ok bool) {
	switch {
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		out, _, ok = decodeWith(utf16.UTF16(utf16.LittleEndian, utf16.ExpectBOM), "UTF-16LE", b, partial)
		return out, "", ok
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		out, _, ok = decodeWith(utf16.UTF16(utf16.BigEndian, utf16.ExpectBOM), "UTF-16BE", b, partial)
		return out, "", ok
	case validUTF8(b, partial):
		return b, "", true
	}
	if html {
		if enc, label := declaredCharset(b); enc != nil {
			out, _, ok = decodeWith(enc, label, b, partial)
			return out, "", ok
		}
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, "", false
	}
	for _, c := range candidates {
		if out, name, ok := decodeWith(c.enc, c.name, b, partial); ok && plausible(out, c) {
			return out, name, true
		}
	}
	return nil, "", false
}

// validUTF8 is utf8.Valid, allowing a character cut at the end when b is
// only the start of the text.
func validUTF8(b []byte, partial bool) bool {
	if partial {
		for i := 0; i < utf8.UTFMax && len(b) > 0 && !utf8.Valid(b); i++ {
			b = b[:len(b)-1]
		}
	}
	return utf8.Valid(b)
}

// decodeWith decodes b, refusing a decoding that meets a byte it cannot
// map (U+FFFD). The start of a text (partial) is cut at its last line
// break first, which no multi-byte character holds.
func decodeWith(enc encoding.Encoding, name string, b []byte, partial bool) ([]byte, string, bool) {
	if partial {
		if i := bytes.LastIndexByte(b, '\n'); i > 0 {
			b = b[:i]
		}
	}
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil || bytes.ContainsRune(out, utf8.RuneError) {
		return nil, "", false
	}
	return out, name, true
}

// plausible reports whether decoded text is what c's encoding is for: a
// share of its non-ASCII characters in c's scripts, and kana for a
// Japanese encoding.
//
// A Western text misread as a double-byte encoding shows its accented
// letters turned into ideographs inside Latin words ("ch穰eau"): a
// double-byte decoding where more than a tenth of the non-ASCII
// characters sit between two ASCII letters is not believed.
func plausible(text []byte, c candidate) bool {
	rs := []rune(string(text))
	nonASCII, fit, kana, inWord := 0, 0, 0, 0
	for i, r := range rs {
		if r < 0x80 {
			continue
		}
		nonASCII++
		if c.script(r) {
			fit++
		}
		if isKana(r) {
			kana++
		}
		if i > 0 && i+1 < len(rs) && asciiLetter(rs[i-1]) && asciiLetter(rs[i+1]) {
			inWord++
		}
	}
	switch {
	case nonASCII == 0:
		return true
	case c.kana && kana*10 < nonASCII:
		return false
	case c.share < 1 && inWord*10 > nonASCII:
		return false
	}
	return float64(fit) >= c.share*float64(nonASCII)
}

func asciiLetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }

// declaredCharset returns the encoding an HTML document's <meta> declares
// (x/net/html/charset's prescan, as browsers do it), or nil. The prescan
// is not exported, and DetermineEncoding's answer does not tell a meta
// from its own guess, so it is asked about the first KiB with every
// non-ASCII byte left out and one UTF-8 character and a line break added
// (the break keeps its check of a cut character off it): without a meta
// its guess is then always utf-8.
func declaredCharset(b []byte) (encoding.Encoding, string) {
	probe := make([]byte, 0, 1024)
	for _, c := range b {
		if len(probe) == 1000 {
			break
		}
		if c < 0x80 {
			probe = append(probe, c)
		}
	}
	enc, label, _ := charset.DetermineEncoding(append(probe, "é\n"...), "text/html")
	if label == "utf-8" {
		return nil, ""
	}
	return enc, label
}
