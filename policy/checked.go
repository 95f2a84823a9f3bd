package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/version"
)

// A policy set that compiled once with every compiler stage passes the
// stages that only report errors every time after, as long as neither its
// modules nor what those stages judge them against (OPA's version, the
// builtins Capabilities removes) change. Options.CheckedDir keeps a mark
// for each such set, named by all of that; a set with a mark compiles
// without the check-only stages (a third of a cold start's compile), one
// without is compiled with every stage and marked. A changed policy has
// another name, so it is checked again on its first start, by itself.
// The stage that inlines constant rules (inline.go) runs after every
// check, on a marked set as on any other: the checks judge the modules as
// written, so the mark needs no more in its name.

// checkOnlyStages are the compiler stages that only report errors, and
// the rule dependency graph, which only the recursion and type checks read
// (evaluation does not): skipping them leaves the modules, rule tree and
// indices as a full compile makes them. The type check also records rule
// types in the compiler's type environment, which evaluation reads only
// for `with` replacing a function: a set with `with` outside its tests is
// never marked. Rule conflicts (which include conflicts with data.config)
// and the unsafe-builtin check always run.
var checkOnlyStages = []ast.StageID{
	ast.StageCheckKeywordOverrides,
	ast.StageCheckVoidCalls,
	ast.StageSetGraph,
	ast.StageCheckUndefinedFuncs,
	ast.StageCheckSafetyRuleHeads,
	ast.StageCheckRecursion,
	ast.StageCheckTypes,
}

// checkedMark is the path of src's mark in dir. A mark for a set to
// serve (Options.Serve) also says that it kept to what DeskBridge reads
// and that its tests passed, so its name has the tests and the version
// of those checks in it too.
func checkedMark(dir string, src *Source, serve bool) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", src.Hash(nil), version.Version)
	if serve {
		fmt.Fprintf(h, "serve\x00%s\x00", servedChecksVersion)
		for _, name := range sortedKeys(src.Tests) {
			fmt.Fprintf(h, "%s\x00%d\x00%s", name, len(src.Tests[name]), src.Tests[name])
		}
	}
	for _, name := range slices.Sorted(mapKeys(forbidden)) {
		fmt.Fprintf(h, "%s\x00", name)
	}
	for _, s := range checkOnlyStages {
		fmt.Fprintf(h, "%s\x00", s)
	}
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil)))
}

// wasChecked reports whether dir holds src's mark.
func wasChecked(dir string, src *Source, serve bool) bool {
	if dir == "" {
		return false
	}
	_, err := os.Lstat(checkedMark(dir, src, serve))
	return err == nil
}

// markChecked records in dir that src passed every stage of c, unless a
// module has `with` outside the tests. A mark that cannot be written
// costs the next start the checks, nothing else.
func markChecked(dir string, src *Source, c *compiled, serve bool) {
	if dir == "" || hasWith(c) {
		return
	}
	if os.MkdirAll(dir, 0o700) != nil {
		return
	}
	if f, err := os.OpenFile(checkedMark(dir, src, serve), os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
		f.Close()
	}
}

// hasWith reports whether some module of c uses `with`.
func hasWith(c *compiled) bool {
	found := false
	for _, m := range c.modules {
		ast.WalkWiths(m, func(*ast.With) bool { found = true; return true })
	}
	return found
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}
