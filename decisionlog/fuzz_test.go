package decisionlog

import (
	"bytes"
	"testing"
)

// FuzzParseLine checks the line parser used by Verify and by the writer's
// tail scan: no input makes it panic, and whatever it accepts carries a
// well-formed hash and survives a write and a second parse.
func FuzzParseLine(f *testing.F) {
	line, _, _ := encodeLine(sampleEvent(1))
	f.Add(bytes.TrimSuffix(line, []byte("\n")))
	f.Add([]byte(`{"seq":1,"hash":"` + Genesis + `"}`))
	f.Add([]byte(`{"seq":1,"seq":2,"hash":"` + Genesis + `"}`))
	f.Add([]byte(`{,"hash":"` + Genesis + `"}`))
	f.Add([]byte(`{"input":{"n":1764672000000000000},"hash":"` + Genesis + `"}`))
	f.Add([]byte(`{"labels":{"id":"","vers`))
	f.Fuzz(func(t *testing.T, line []byte) {
		rec, err := parseLine(line)
		if err != nil {
			return
		}
		if len(rec.stored) != hashLen || len(rec.computed) != hashLen {
			t.Fatalf("accepted hash %q / %q", rec.stored, rec.computed)
		}
		again, _, err := encodeLine(&rec.ev)
		if err != nil {
			t.Fatalf("re-encoding an accepted event: %v", err)
		}
		rec2, err := parseLine(bytes.TrimSuffix(again, []byte("\n")))
		if err != nil || !rec2.intact() {
			t.Fatalf("a line written from an accepted event does not parse back intact: %v\n%s", err, again)
		}
	})
}
