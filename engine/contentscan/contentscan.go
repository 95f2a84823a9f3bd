// Package contentscan finds secrets by their format in text about to leave
// the host: private-key blocks, cloud access keys, tokens with a
// recognisable prefix. The formats are data (rules.json, a subset of
// gitleaks' default rules, LICENSE.gitleaks), not code.
//
// Start-up time matters (Chrome starts a process per message), so nothing
// is read or compiled until the first Scan, and a rule's expression is
// compiled only the first time one of its keywords occurs: a scan of text
// without any keyword runs no regular expression at all. A Match names
// the rule and where the secret lies, so a caller can cut it out; the
// secret itself is never part of what a Match reports.
package contentscan

import (
	_ "embed"
	"fmt"
	"math"
	"regexp"
	"sort"
	"sync"

	"github.com/go-json-experiment/json"
)

//go:embed rules.json
var rulesJSON []byte

// Match is one secret found in a text.
type Match struct {
	// Rule is the id of the rule that found it (gitleaks' id).
	Rule string
	// Start and End delimit the secret in the scanned text.
	Start, End int
}

// Rule is one secret format of rules.json.
type Rule struct {
	ID          string   `json:"id"`
	Description string   `json:"description"`
	Regex       string   `json:"regex"`
	Keywords    []string `json:"keywords"`
	SecretGroup int      `json:"secret_group"`
	Entropy     float64  `json:"entropy"`
	Allow       []string `json:"allow"`

	once  sync.Once
	re    *regexp.Regexp
	allow []*regexp.Regexp
	err   error
}

// compiled compiles the rule once.
func (r *Rule) compiled() error {
	r.once.Do(func() {
		if r.re, r.err = regexp.Compile(r.Regex); r.err != nil {
			return
		}
		for _, a := range r.Allow {
			re, err := regexp.Compile(a)
			if err != nil {
				r.err = err
				return
			}
			r.allow = append(r.allow, re)
		}
	})
	return r.err
}

// Set is a loaded rule set with its keyword index.
type Set struct {
	Rules []*Rule
	// byPair lists, for the first two bytes of each keyword (lower case),
	// the keywords that start so and the rule of each.
	groups [][]keyword
	slot   *[1 << 16]uint8 // by pairIndex: 1 + the index in groups, or 0
}

type keyword struct {
	text string // lower case
	rule int
}

// Load parses a rule set in the form of rules.json and indexes its
// keywords; expressions are compiled on first use.
func Load(data []byte) (*Set, error) {
	var doc struct {
		Rules []*Rule `json:"rules"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	s := &Set{Rules: doc.Rules, slot: new([1 << 16]uint8)}
	for i, r := range s.Rules {
		if r.ID == "" || r.Regex == "" || len(r.Keywords) == 0 {
			return nil, fmt.Errorf("contentscan: rule %d needs an id, a regex and keywords", i)
		}
		for _, k := range r.Keywords {
			k = lower(k)
			if len(k) < 2 {
				return nil, fmt.Errorf("contentscan: rule %s: keyword %q is shorter than 2 bytes", r.ID, k)
			}
			x := pairIndex(k[0], k[1])
			if s.slot[x] == 0 {
				if len(s.groups) == 255 {
					return nil, fmt.Errorf("contentscan: more than 255 keyword pairs")
				}
				s.groups = append(s.groups, nil)
				s.slot[x] = uint8(len(s.groups))
			}
			g := int(s.slot[x]) - 1
			s.groups[g] = append(s.groups[g], keyword{text: k, rule: i})
		}
	}
	return s, nil
}

// Default returns the embedded rule set, loaded on first use.
var Default = sync.OnceValue(func() *Set {
	s, err := Load(rulesJSON)
	if err != nil {
		panic(err) // the embedded file is tested
	}
	return s
})

// Scan returns the secrets in text with the embedded rules, in order of
// position.
func Scan(text []byte) []Match { return Default().Scan(text) }

// Scan returns the secrets in text, in order of position.
func (s *Set) Scan(text []byte) []Match {
	var hit []bool // rules whose keyword occurs, made on the first hit
	if len(text) < 2 {
		return nil
	}
	prev := lowerTab[text[0]]
	for i := 1; i < len(text); i++ {
		cur := lowerTab[text[i]]
		g := s.slot[uint16(prev)<<8|uint16(cur)]
		prev = cur
		if g == 0 {
			continue
		}
		for _, k := range s.groups[g-1] {
			if (hit == nil || !hit[k.rule]) && hasPrefixFold(text[i-1:], k.text) {
				if hit == nil {
					hit = make([]bool, len(s.Rules))
				}
				hit[k.rule] = true
			}
		}
	}
	if hit == nil {
		return nil
	}
	var out []Match
	for i, on := range hit {
		if on {
			out = append(out, s.Rules[i].find(text)...)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Start < out[b].Start })
	return out
}

// find runs the rule over text.
func (r *Rule) find(text []byte) []Match {
	if r.compiled() != nil {
		return nil
	}
	var out []Match
	for _, loc := range r.re.FindAllSubmatchIndex(text, -1) {
		start, end := secretSpan(loc, r.SecretGroup)
		secret := text[start:end]
		if r.Entropy > 0 && entropy(secret) < r.Entropy || r.allowed(secret) {
			continue
		}
		out = append(out, Match{Rule: r.ID, Start: start, End: end})
	}
	return out
}

// secretSpan returns the secret's span in a match: group g, or with g 0
// the first non-empty group, or the whole match.
func secretSpan(loc []int, g int) (int, int) {
	if g > 0 && 2*g+1 < len(loc) && loc[2*g] >= 0 {
		return loc[2*g], loc[2*g+1]
	}
	for i := 2; i+1 < len(loc); i += 2 {
		if loc[i] >= 0 && loc[i+1] > loc[i] {
			return loc[i], loc[i+1]
		}
	}
	return loc[0], loc[1]
}

func (r *Rule) allowed(secret []byte) bool {
	for _, a := range r.allow {
		if a.Match(secret) {
			return true
		}
	}
	return false
}

// entropy is the Shannon entropy of b in bits per byte.
func entropy(b []byte) float64 {
	var counts [256]int
	for _, c := range b {
		counts[c]++
	}
	h := 0.0
	for _, n := range counts {
		if n > 0 {
			p := float64(n) / float64(len(b))
			h -= p * math.Log2(p)
		}
	}
	return h
}

// pairIndex numbers a pair of bytes.
func pairIndex(c, d byte) int { return int(c)<<8 | int(d) }

// lowerTab maps each byte to fold's answer.
var lowerTab = func() (t [256]byte) {
	for i := range t {
		t[i] = fold(byte(i))
	}
	return t
}()

// fold lowers an ASCII letter.
func fold(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func lower(s string) string {
	b := []byte(s)
	for i := range b {
		b[i] = fold(b[i])
	}
	return string(b)
}

// hasPrefixFold reports whether text starts with k (lower case), ignoring
// ASCII case.
func hasPrefixFold(text []byte, k string) bool {
	if len(text) < len(k) {
		return false
	}
	for i := 0; i < len(k); i++ {
		if fold(text[i]) != k[i] {
			return false
		}
	}
	return true
}

// Redact overwrites each match's span of text with '*', byte for byte, so
// that offsets and lengths stay as they were.
func Redact(text []byte, ms []Match) {
	for _, m := range ms {
		for i := max(m.Start, 0); i < min(m.End, len(text)); i++ {
			text[i] = '*'
		}
	}
}
