package jsonenc

import (
	"bytes"
	"testing"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

var quoteCases = []string{
	"", "a", "plain ascii text of some length, more than eight bytes",
	`quote " and backslash \ inside`, "\x00\x01\x1f\x7f", "\b\f\n\r\t",
	"tab\there\nnewline after eight bytes", "<>&\u2028\u2029", "é ü 日本語 🙂",
	"12345678\"", "1234567\\", "1234567\x1f", "\xff", "abcdefgh\xffi", "a\xc3", "\xed\xa0\x80",
	"héllo wörld ünïcödé ∑ and \"quotes\" and \\ and \x1b escapes",
}

// checkQuote compares AppendQuote and QuotedLen with the encoder on s.
func checkQuote(t *testing.T, s string) {
	t.Helper()
	want, werr := json.Marshal(s)
	got, gerr := AppendQuote(nil, s)
	gotB, gerrB := AppendQuote(nil, []byte(s))
	if (werr != nil) != (gerr != nil) || (werr != nil) != (gerrB != nil) {
		t.Fatalf("%q: encoder error %v, AppendQuote errors %v / %v", s, werr, gerr, gerrB)
	}
	if werr != nil {
		return
	}
	if !bytes.Equal(got, want) || !bytes.Equal(gotB, want) {
		t.Fatalf("%q: AppendQuote = %s / %s, encoder %s", s, got, gotB, want)
	}
	if n := QuotedLen([]byte(s)); n != int64(len(want)-2) {
		t.Fatalf("%q: QuotedLen = %d, encoder %d", s, n, len(want)-2)
	}
}

func TestAppendQuoteMatchesEncoder(t *testing.T) {
	for _, s := range quoteCases {
		checkQuote(t, s)
	}
	for c := range 256 { // every byte at every offset within a word
		for pad := range 9 {
			checkQuote(t, string(bytes.Repeat([]byte("x"), pad))+string(rune(c))+"tail")
			checkQuote(t, string(bytes.Repeat([]byte("x"), pad))+string([]byte{byte(c)})+"tail")
		}
	}
}

// TestQuotedLenCountsInvalidAsReplacement keeps QuotedLen's count of
// invalid bytes equal to the encoder's with invalid UTF-8 allowed.
func TestQuotedLenCountsInvalidAsReplacement(t *testing.T) {
	for _, s := range []string{"\xff", "abcdefgh\xffi", "a\xc3", "\xed\xa0\x80x"} {
		want, err := json.Marshal(s, jsontext.AllowInvalidUTF8(true))
		if err != nil {
			t.Fatal(err)
		}
		if n := QuotedLen([]byte(s)); n != int64(len(want)-2) {
			t.Fatalf("%q: QuotedLen = %d, encoder %d", s, n, len(want)-2)
		}
	}
}

func FuzzAppendQuote(f *testing.F) {
	for _, s := range quoteCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkQuote(t, s) })
}

func TestAppendTimeMatchesEncoder(t *testing.T) {
	times := []time.Time{
		{}, time.Unix(0, 0).UTC(), time.Date(2024, 1, 2, 3, 4, 5, 60000, time.UTC),
		time.Date(2024, 1, 2, 3, 4, 5, 123456789, time.FixedZone("x", -7*3600)),
		time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("y", 5*3600+1800)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("z", 25*3600)),
		time.Date(2024, 1, 1, 0, 0, 0, 0, time.FixedZone("s", 3600+30)),
	}
	for _, tm := range times {
		checkTime(t, tm)
	}
}

func checkTime(t *testing.T, tm time.Time) {
	t.Helper()
	want, werr := json.Marshal(tm)
	got, gerr := AppendTime(nil, tm)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%v: encoder error %v, AppendTime error %v", tm, werr, gerr)
	}
	if werr == nil && !bytes.Equal(got, want) {
		t.Fatalf("%v: AppendTime = %s, encoder %s", tm, got, want)
	}
}

func FuzzAppendTime(f *testing.F) {
	f.Add(int64(0), int64(0), 0)
	f.Add(int64(1700000000), int64(123), 3600)
	f.Fuzz(func(t *testing.T, sec, nsec int64, offset int) {
		checkTime(t, time.Unix(sec, nsec).In(time.FixedZone("f", offset%(48*3600))))
	})
}

func BenchmarkAppendQuotePage(b *testing.B) {
	page := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog 0123456789\n"), 1<<20/55)
	dst := make([]byte, 0, 2<<20)
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		dst, _ = AppendQuote(dst[:0], page)
	}
}

func BenchmarkAppendQuotePlain(b *testing.B) {
	page := bytes.Repeat([]byte("the quick brown fox jumps over the lazy dog 0123456789 "), 1<<20/55)
	dst := make([]byte, 0, 2<<20)
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		dst, _ = AppendQuote(dst[:0], page)
	}
}
