package policy

import (
	"slices"
	"testing"
)

// FuzzDataDocument: whatever a data file holds and wherever it is, reading
// it does not panic and never fills a reserved name (data.config …).
func FuzzDataDocument(f *testing.F) {
	for _, seed := range []struct{ path, text string }{
		{"acme/data.json", `{"readable": ["docs/"]}`},
		{"data.json", `{"config": {"allowed_origins": ["x"]}}`},
		{"data.yaml", "acme:\n  x: 1\nconfig: {}\n"},
		{"config/data.yml", "{}"},
		{"a/b/data.yaml", "- 1\n- &x [*x]\n"},
		{"data.json", `[1, 2]`},
	} {
		f.Add(seed.path, []byte(seed.text))
	}
	f.Fuzz(func(t *testing.T, path string, b []byte) {
		if !isDataFile(path) {
			return
		}
		s := &Source{Name: "fuzz"}
		if err := s.addDataFile(path, b); err != nil {
			return
		}
		if err := s.checkData(); err != nil {
			return
		}
		for name := range s.Data {
			if slices.Contains(reservedData, name) {
				t.Fatalf("%s took data.%s: %q", path, name, b)
			}
		}
	})
}
