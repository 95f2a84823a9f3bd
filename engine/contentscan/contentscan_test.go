package contentscan

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// fake returns n characters drawn from alphabet with a fixed seed: token
// shapes for the tests, built here so that no secret-shaped string sits in
// the repository.
func fake(seed uint64, alphabet string, n int) string {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upper2 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	b64    = alnum + "+/"
)

// Secrets of each common format, one per rule they must trigger.
func secrets() map[string]string {
	return map[string]string{
		"private-key":         "-----BEGIN RSA PRIVATE KEY-----\n" + fake(1, b64, 64) + "\n" + fake(2, b64, 64) + "\n-----END RSA PRIVATE KEY-----",
		"aws-access-token":    "AKIA" + fake(3, upper2, 16),
		"github-pat":          "ghp_" + fake(4, alnum, 36),
		"github-oauth":        "gho_" + fake(5, alnum, 36),
		"gitlab-pat":          "glpat-" + fake(6, alnum, 20),
		"slack-bot-token":     "xoxb-1234567890-1234567890-" + fake(7, alnum, 24),
		"stripe-access-token": "sk_live_" + fake(8, alnum, 24),
		"gcp-api-key":         "AIza" + fake(9, alnum, 35),
		"npm-access-token":    "npm_" + fake(10, alnum, 36),
		"age-secret-key":      "AGE-SECRET-KEY-1" + fake(11, "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
	}
}

func TestEmbeddedRulesCompile(t *testing.T) {
	s := Default()
	if len(s.Rules) < 30 {
		t.Fatalf("%d rules", len(s.Rules))
	}
	for _, r := range s.Rules {
		if err := r.compiled(); err != nil {
			t.Errorf("rule %s: %v", r.ID, err)
		}
	}
}

// TestScanFindsEachFormat finds each secret inside ordinary text, names
// its rule and delimits exactly the secret.
func TestScanFindsEachFormat(t *testing.T) {
	for rule, secret := range secrets() {
		t.Run(rule, func(t *testing.T) {
			text := "config:\n  key = \"" + secret + "\"\n# end\n"
			ms := Scan([]byte(text))
			if len(ms) != 1 || ms[0].Rule != rule || text[ms[0].Start:ms[0].End] != secret {
				t.Fatalf("Scan = %+v, want one %s match of the secret", ms, rule)
			}
			b := []byte(text)
			Redact(b, ms)
			if strings.Contains(string(b), secret) || len(b) != len(text) {
				t.Fatalf("Redact left %q", b)
			}
		})
	}
}

// TestScanIgnores holds what is not a secret: documentation's example
// key, low-entropy fill, a keyword alone, a header without a key.
func TestScanIgnores(t *testing.T) {
	for _, text := range []string{
		"AKIAIOSFODNN7EXAMPLE",
		"AKIAAAAAAAAAAAAAAAAA",
		"ask the task desk about the AKIA prefix and ghp_ tokens",
		"-----BEGIN PRIVATE KEY----- goes here",
		strings.Repeat("The quick brown fox jumps over the lazy dog. ", 30),
	} {
		if ms := Scan([]byte(text)); len(ms) != 0 {
			t.Errorf("Scan(%.40q) = %+v, want none", text, ms)
		}
	}
}

// TestLoadRefusesBadRules checks the rule file's shape.
func TestLoadRefusesBadRules(t *testing.T) {
	for _, doc := range []string{
		`{"rules":[{"id":"x","regex":"a","keywords":[]}]}`,
		`{"rules":[{"id":"","regex":"a","keywords":["ab"]}]}`,
		`{"rules":[{"id":"x","regex":"a","keywords":["a"]}]}`,
		`not json`,
	} {
		if _, err := Load([]byte(doc)); err == nil {
			t.Errorf("Load(%s) = nil error", doc)
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range secrets() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, m := range Scan(b) {
			if m.Start < 0 || m.End > len(b) || m.Start > m.End {
				t.Fatalf("match %+v out of %d bytes", m, len(b))
			}
		}
	})
}

// BenchmarkScan1KiB scans a kibibyte of source text without a secret,
// the common case of every read_file.
func BenchmarkScan1KiB(b *testing.B) {
	text := []byte(strings.Repeat("func (s *Server) handle(ctx context.Context, req *Request) error { // ask the task\n", 13)[:1024])
	Scan(text)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Scan(text)
	}
}

// BenchmarkFirstScan is the cost the first scan of a process pays: the
// rule file parsed and indexed.
func BenchmarkFirstScan(b *testing.B) {
	text := []byte("hello")
	for b.Loop() {
		s, _ := Load(rulesJSON)
		s.Scan(text)
	}
}
