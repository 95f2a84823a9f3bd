package facts

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIndexedMatchingIsReferenceMatching: the classifier's indexes (by name,
// first component, extension and literal lead) find exactly what matching
// every pattern everywhere finds (referenceClass), over paths made from the patterns
// themselves (each * filled in several ways) and near misses.
func TestIndexedMatchingIsReferenceMatching(t *testing.T) {
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
		if got, want := c.ClassifySlash(p), referenceClass(DefaultSecret, DefaultExecutes, p); got != want {
			t.Errorf("%s: classified %q, matching every pattern gives %q", p, got, want)
		}
	}
}
