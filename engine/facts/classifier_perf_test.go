package facts

import (
	"path"
	"strings"
	"testing"
)

// referenceClass is the classifier's definition, matched naively with
// path.Match on every component; the compiled Classifier must agree.
func referenceClass(secret, executes []string, p string) string {
	elems := strings.FieldsFunc(strings.ToLower(p), func(r rune) bool { return r == '/' })
	match := func(patterns []string) bool {
		for _, pat := range patterns {
			parts := strings.Split(strings.Trim(strings.ToLower(pat), "/"), "/")
			for start := range elems {
				if len(parts) > len(elems)-start {
					continue
				}
				ok := true
				for i, g := range parts {
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
	case match(secret):
		return Secret
	case match(executes):
		return Executes
	}
	return ""
}

func TestClassifierAgreesWithReference(t *testing.T) {
	extraSecret, extraExec := []string{"private", "data/keys/*.bin"}, []string{"run[0-9].sh"}
	c := NewClassifier(extraSecret, extraExec) // folds case, as the reference does
	secret := append(append([]string{}, DefaultSecret...), extraSecret...)
	executes := append(append([]string{}, DefaultExecutes...), extraExec...)
	for _, p := range []string{
		"/home/ann/Demo/a.txt", "/home/ann/Demo/.env", "/home/ann/Demo/.env.local", "/w/.git/hooks/pre-commit",
		"/w/.docker/config.json", "/w/docker/config.json", "/w/x/.ssh", "/w/credentials", "/w/credentials.jsonx",
		"/w/private/notes", "/w/data/keys/a.bin", "/w/data/keys/a.txt", "/w/run1.sh", "/w/run12.sh",
		"/w/.vscode/tasks.json", "/w/.vscode/other.json", "/w/server.PEM", "/w/Start Menu/Programs/Startup/x",
		"/w/.config/systemd/user/a.service", "/w/.config/systemd/system", "/w/id_rsa.pub", "/w/a.tfstate.backup",
		"/w/.tfstate.", "/w/x.tfstate", "/w/tfstate.x", "/w/b.TFSTATE.1/c", "/w/a.tfstate.x.tfstate.y", "/w/a*b",
		"/w/.git/modules/sub/config", "/w/.git/modules/config", "/w/a/.config/gh/hosts.yml", "/w/.config",
		"/w/.cargo/credentials.toml", "/w/.cargo", "/w/data/data/keys/a.bin", "/w/data/keys", "/w/keys/data/keys/b.bin",
	} {
		t.Run(p, func(t *testing.T) {
			if got, want := c.ClassifySlash(p), referenceClass(secret, executes, p); got != want {
				t.Fatalf("class %q, reference %q", got, want)
			}
		})
	}
}

// BenchmarkClassify classifies an ordinary path deep in a workspace.
func BenchmarkClassify(b *testing.B) {
	c := NewClassifier(nil, nil)
	b.ReportAllocs()
	for range b.N {
		if c.Classify("/home/ann/Projects/site/src/components/header/index.tsx") != "" {
			b.Fatal("classified")
		}
	}
}

// FuzzClassifierAgreesWithReference holds the compiled classifier to the
// path.Match reference on any path, with a *x* pattern among the extras.
func FuzzClassifierAgreesWithReference(f *testing.F) {
	extraSecret, extraExec := []string{"*mid*", "a/*b*/c"}, []string{"run[0-9].sh"}
	c := NewClassifier(extraSecret, extraExec)
	secret := append(append([]string{}, DefaultSecret...), extraSecret...)
	executes := append(append([]string{}, DefaultExecutes...), extraExec...)
	for _, p := range []string{"/w/a.tfstate.b", "/w/xmidx", "/a/bb/c", "/w/.env.x", "/w/run1.sh"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if got, want := c.ClassifySlash(p), referenceClass(secret, executes, p); got != want {
			t.Fatalf("%q: class %q, reference %q", p, got, want)
		}
	})
}
