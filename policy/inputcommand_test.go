package policy

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// genCommandFacts returns facts as cmdfacts.Build could make them, with
// strings that need escaping, empty and nil lists, large indices.
func genCommandFacts(r *rand.Rand) Command {
	strs := []string{"", "git", "log", "--", "-c", "x=y", "é\u2028<&>\"\\", "/home/ann/Demo/a b", "\x00\x1f",
		"true", "1", "null", "Demo", strings.Repeat("a", 300), "\U0001F600", "\t\n"}
	s := func() string { return strs[r.IntN(len(strs))] }
	list := func(n int) []string {
		if n == 0 && r.IntN(2) == 0 {
			return nil
		}
		out := make([]string, n)
		for i := range out {
			out[i] = s()
		}
		return out
	}
	argv := append([]string{s()}, list(r.IntN(6))...)
	f := Command{Argv: argv, Program: s(), ProgramName: s(), Resolved: s(), Args: argv[1:],
		OptionsEnd: r.IntN(len(argv)), FirstOperand: r.IntN(3) * (1 + r.IntN(2000)),
		EnvNames: list(r.IntN(3)), HasStdin: r.IntN(2) == 0, ScriptRunner: s(), ExcludesAt: r.IntN(9)}
	if r.IntN(2) == 0 {
		f.Excludes = list(r.IntN(3))
	}
	if r.IntN(5) == 0 {
		f.Args = nil
	}
	n := r.IntN(4)
	if n > 0 || r.IntN(2) == 0 {
		f.PathArgs = []CommandPathArg{}
	}
	for range n {
		f.PathArgs = append(f.PathArgs, CommandPathArg{Index: r.IntN(1100), Value: s(), Canonical: s(),
			Inside: r.IntN(2) == 0, Workspace: s(), Write: r.IntN(2) == 0})
	}
	return f
}

// checkCommandValue fails unless commandValue(f) is objectValue(f)'s
// value, in the same order (String) and with the same hash.
func checkCommandValue(t *testing.T, f Command) {
	t.Helper()
	want, err := objectValue(f, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := commandValue(f)
	if !ok {
		t.Fatalf("commandValue refused %+v", f)
	}
	if got.Compare(want) != 0 || got.String() != want.String() || got.Hash() != want.Hash() {
		t.Fatalf("command value\n got %v\nwant %v", got, want)
	}
}

// TestCommandValueMatchesObjectValue holds the direct input.command to the
// value its JSON encoding gives, over generated facts and built ones.
func TestCommandValueMatchesObjectValue(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		checkCommandValue(t, genCommandFacts(r))
	}
}

// TestCommandValueRefusesInvalidUTF8: a string the JSON encoding refuses
// sends Document to objectValue, which gives the encoding's answer.
func TestCommandValueRefusesInvalidUTF8(t *testing.T) {
	f := Command{Argv: []string{"git", "\xff"}, Args: []string{"\xff"}}
	if _, ok := commandValue(f); ok {
		t.Fatal("commandValue accepted invalid UTF-8")
	}
	_, want := objectValue(f, nil)
	if _, err := (&Input{Command: &f}).Document(); (err == nil) != (want == nil) {
		t.Fatalf("Document error %v, objectValue's %v", err, want)
	}
}

// FuzzCommandValueMatchesObjectValue is the generated half of
// TestCommandValueMatchesObjectValue from fuzzed seeds.
func FuzzCommandValueMatchesObjectValue(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		checkCommandValue(t, genCommandFacts(rand.New(rand.NewPCG(a, b))))
	})
}
