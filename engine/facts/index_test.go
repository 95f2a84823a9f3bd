package facts

import (
	"math/rand/v2"
	"path"
	"strings"
	"testing"
)

// naiveClass classifies p by matching every pattern at every element with
// path.Match, as the patterns are documented, without the indexes.
func naiveClass(secret, executes []string, p string) string {
	elems := strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return r == '/' })
	matches := func(patterns []string) bool {
		for _, pat := range patterns {
			run := strings.Split(strings.ToLower(strings.Trim(pat, "/")), "/")
			for start := range elems {
				if len(run) > len(elems)-start {
					continue
				}
				ok := true
				for i, g := range run {
					if m, _ := path.Match(g, elems[start+i]); !m {
						ok = false
						break
					}
				}
				if ok {
					return true
				}
			}
		}
		return false
	}
	switch {
	case matches(secret):
		return Secret
	case matches(executes):
		return Executes
	}
	return ""
}

// TestIndexedMatchingIsNaiveMatching: the classifier's indexes (by name,
// first component, extension and literal lead) find exactly what matching
// every pattern everywhere finds, over paths made from the patterns
// themselves (each * filled in several ways) and near misses.
func TestIndexedMatchingIsNaiveMatching(t *testing.T) {
	c := NewClassifier(nil, nil)
	rnd := rand.New(rand.NewPCG(1, 2))
	fills := []string{"", "x", "Prod", "a.b", "id_", ".env", "-1"}
	var paths []string
	for _, pat := range append(append([]string{}, DefaultSecret...), DefaultExecutes...) {
		for range 6 {
			var b strings.Builder
			for _, r := range pat {
				switch r {
				case '*':
					b.WriteString(fills[rnd.IntN(len(fills))])
				case '?':
					b.WriteByte('q')
				default:
					b.WriteRune(r)
				}
			}
			p := "/home/ana/ws/" + b.String()
			paths = append(paths, p, p+"/inner.txt", p+"x", "x"+b.String(), strings.ToUpper(p))
		}
	}
	for _, p := range paths {
		if got, want := c.ClassifySlash(p), naiveClass(DefaultSecret, DefaultExecutes, p); got != want {
			t.Errorf("%s: classified %q, matching every pattern gives %q", p, got, want)
		}
	}
}
