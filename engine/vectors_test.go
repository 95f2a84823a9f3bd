package engine

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// vector is one protocol test vector (testdata/vectors/README.md).
type vector struct {
	Note    string          `json:"note"`
	Setup   []setupEntry    `json:"setup"`
	Request json.RawMessage `json:"request"`
	Want    struct {
		Success    bool               `json:"success"`
		Code       string             `json:"code"`
		DataSubset any                `json:"data_subset"`
		Files      map[string]*string `json:"files"`
	} `json:"want"`
}

// TestVectors runs every vector of testdata/vectors against a fresh
// workspace, in process.
func TestVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "vectors", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no vectors: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []vector
		if err := json.Unmarshal(b, &vs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			for _, v := range vs {
				t.Run(v.Note, func(t *testing.T) { runVector(t, v) })
			}
		})
	}
}

func runVector(t *testing.T, v vector) {
	for _, e := range v.Setup {
		if e.Symlink != "" && (e.OS == "" || e.OS == runtime.GOOS) {
			wine.Skip(t, wine.NoSymlinks)
		}
	}
	th := newTestHost(t, nil)
	th.setup(t, v.Setup)
	r := th.handle(t, []byte(th.expandJSON(string(v.Request))))
	want := v.Want.Code
	if v.Want.Success {
		want = "ok"
	}
	mustCode(t, r, want)
	if v.Want.DataSubset != nil {
		var wantData any
		b, _ := json.Marshal(v.Want.DataSubset)
		json.Unmarshal([]byte(th.expandJSON(string(b))), &wantData)
		gotData := any(r.Data)
		b, _ = json.Marshal(r.Data)
		json.Unmarshal(b, &gotData)
		if err := subset(wantData, gotData, "data"); err != nil {
			t.Errorf("%v\ngot data: %s", err, b)
		}
	}
	for p, content := range v.Want.Files {
		got, err := os.ReadFile(th.expand(p))
		switch {
		case content == nil && !os.IsNotExist(err):
			t.Errorf("%s exists, want it absent", p)
		case content != nil && (err != nil || string(got) != th.expand(*content)):
			t.Errorf("%s holds %q (%v), want %q", p, got, err, *content)
		}
	}
}

// subset reports where want is not a subset of got: objects match member
// by member (got may have more), arrays element by element with the same
// length, scalars by equality.
func subset(want, got any, at string) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: got %v, want an object", at, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s.%s: missing", at, k)
			}
			if err := subset(wv, gv, at+"."+k); err != nil {
				return err
			}
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%s: got %v, want %d elements", at, got, len(w))
		}
		for i := range w {
			if err := subset(w[i], g[i], fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if !reflect.DeepEqual(want, got) {
		return fmt.Errorf("%s: got %#v, want %#v", at, got, want)
	}
	return nil
}
