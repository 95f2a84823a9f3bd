package layering

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/deskbridge/deskbridge"

// forbidden lists, for each folder (and everything below it), the folders
// its non-test code must never import.
var forbidden = map[string][]string{
	// The executor changes the OS; it is told what to do, it never decides
	// or speaks the browser's protocol: it returns typed Go errors, and
	// engine words them and encodes the wire.
	"sandbox": {"engine", "policy", "decisionlog", "fleet", "install", "cmd", "protocol", "internal/jsonenc"},
	// Deciding is pure: an input document in, a decision out.
	"policy": {"engine", "sandbox", "decisionlog", "fleet", "install", "cmd", "media"},
	// The decision log records; it neither decides nor acts.
	"decisionlog": {"engine", "sandbox", "fleet", "install", "cmd", "media"},
	// Shared vocabulary imports nothing above it.
	"protocol": {"engine", "policy", "sandbox", "decisionlog", "fleet", "install", "cmd", "config", "media"},
	"config":   {"engine", "policy", "sandbox", "decisionlog", "fleet", "install", "cmd", "media"},
	// The media parsers (images, documents) read hostile bytes into
	// pixels and text, and do nothing else: beside the executor, below
	// engine, they know neither the protocol nor the OS's changes; they
	// run in the confined children (the image worker, the converter).
	"media": {"engine", "policy", "sandbox", "decisionlog", "fleet", "install", "cmd", "config", "protocol"},
	// Leaf helpers and test kits: they return their own typed errors,
	// which engine/errmap maps to the protocol's codes.
	"internal": {"engine", "policy", "sandbox", "decisionlog", "fleet", "install", "cmd", "config", "protocol", "media"},
	"engine":   {"cmd", "install", "fleet"},
}

// decisionlog/replay re-evaluates logged decisions: it is the one part of
// the audit side that asks the policy.
var allowed = map[string][]string{"decisionlog/replay": {"policy"}}

// features are the feature packages under engine, each owning its skill's
// actions: only engine, which registers them, imports one, and none
// imports another (what two share lives below them: engine/action,
// engine/skills, engine/launch, engine/textenc).
var features = []string{
	"engine/agent", "engine/assets", "engine/commands", "engine/control", "engine/desktop",
	"engine/documents", "engine/files", "engine/images", "engine/projects",
}

// featureOf returns the feature package pkg lies in, or "".
func featureOf(pkg string) string {
	for _, f := range features {
		if under(pkg, f) {
			return f
		}
	}
	return ""
}

func TestImportsPointOneWay(t *testing.T) {
	edges := moduleImports(t)
	for from, tos := range edges {
		for _, to := range tos {
			if bad := against(from, to); bad != "" {
				t.Errorf("%s imports %s: %s", from, to, bad)
			}
		}
	}
}

func TestNoCycleBetweenTopLevelFolders(t *testing.T) {
	graph := map[string]map[string]bool{}
	for from, tos := range moduleImports(t) {
		for _, to := range tos {
			a, b := unit(from), unit(to)
			if a == b {
				continue
			}
			if graph[a] == nil {
				graph[a] = map[string]bool{}
			}
			graph[a][b] = true
		}
	}
	for a := range graph {
		if path := cycleFrom(graph, a); path != nil {
			t.Errorf("import cycle between top-level folders: %s", strings.Join(path, " → "))
		}
	}
}

// TestFeaturesExist keeps the features list true to the tree: a feature
// renamed or removed would leave its rule guarding nothing.
func TestFeaturesExist(t *testing.T) {
	edges := moduleImports(t)
	for _, f := range features {
		if _, ok := edges[f]; !ok {
			t.Errorf("feature package %s not found", f)
		}
	}
}

// TestTestKitsOnlyInTests: the kits under internal/testkit serve tests
// (and the measuring scripts); no program code imports one.
func TestTestKitsOnlyInTests(t *testing.T) {
	for from, tos := range moduleImports(t) {
		if under(from, "internal/testkit") || under(from, "scripts") {
			continue
		}
		for _, to := range tos {
			if under(to, "internal/testkit") {
				t.Errorf("%s imports the test kit %s", from, to)
			}
		}
	}
}

// against returns why the arrow from → to runs against the layering, or "".
func against(from, to string) string {
	if f := featureOf(to); f != "" && from != "engine" && featureOf(from) != f {
		return fmt.Sprintf("only engine imports the feature package %s", f)
	}
	for _, ok := range allowed[from] {
		if under(to, ok) {
			return ""
		}
	}
	for folder, nots := range forbidden {
		if !under(from, folder) {
			continue
		}
		for _, n := range nots {
			if under(to, n) {
				return fmt.Sprintf("%s/… must not import %s/…", folder, n)
			}
		}
	}
	return ""
}

// unit is the top-level folder a package belongs to: internal/ is one
// folder like the others, so protocol → internal/jsonenc and
// internal/pathform → protocol together are a cycle.
func unit(pkg string) string {
	top, _, _ := strings.Cut(pkg, "/")
	return top
}

func under(pkg, folder string) bool { return pkg == folder || strings.HasPrefix(pkg, folder+"/") }

// cycleFrom returns a cycle through start, or nil.
func cycleFrom(graph map[string]map[string]bool, start string) []string {
	var walk func(n string, path []string) []string
	seen := map[string]bool{}
	walk = func(n string, path []string) []string {
		for next := range graph[n] {
			if next == start {
				return append(path, next)
			}
			if !seen[next] {
				seen[next] = true
				if c := walk(next, append(path, next)); c != nil {
					return c
				}
			}
		}
		return nil
	}
	return walk(start, []string{start})
}

// moduleImports maps each package folder of the module (relative to its
// root) to the module's packages its non-test files import.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	edges := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		from := filepath.ToSlash(rel)
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if to, ok := strings.CutPrefix(p, module+"/"); ok && !slices.Contains(edges[from], to) {
				edges[from] = append(edges[from], to)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(edges) < 10 {
		t.Fatalf("read the imports of only %d packages; is the module root %s?", len(edges), root)
	}
	return edges
}

// TestRulesCatchWrongArrows keeps the rules themselves honest: each arrow
// below is one the layering forbids (or, last, allows).
func TestRulesCatchWrongArrows(t *testing.T) {
	for _, tt := range []struct {
		from, to string
		bad      bool
	}{
		{"sandbox/wsview", "engine/facts", true},
		{"sandbox", "policy", true},
		{"sandbox", "protocol", true},
		{"sandbox/wsview", "protocol", true},
		{"sandbox/netguard", "protocol", true},
		{"sandbox", "internal/jsonenc", true},
		{"sandbox/browser", "internal/jsonenc", true},
		{"sandbox/netguard", "internal/ipclass", false},
		{"engine/errmap", "protocol", false},
		{"policy", "decisionlog", true},
		{"policy", "sandbox/proc", true},
		{"protocol", "config", true},
		{"media/imaging", "protocol", true},
		{"media/docconv", "sandbox/proc", true},
		{"internal/kinderr", "media/docconv", true},
		{"policy", "media/imaging", true},
		{"engine/images", "media/imaging", false},
		{"sandbox/docconv", "media/docconv", false},
		{"media/docconv", "internal/kinderr", false},
		{"internal/pathform", "engine", true},
		{"internal/pathform", "protocol", true},
		{"internal/testkit/corpus", "protocol", true},
		{"engine", "install", true},
		{"engine/commands", "sandbox/proc", false},
		{"engine/images", "engine/files", true},
		{"engine/desktop/x", "engine/control", true},
		{"cmd/deskbridge", "engine/control", true},
		{"engine/files", "engine/action", false},
		{"engine", "engine/images", false},
		{"decisionlog/replay", "policy", false},
		{"engine", "policy", false},
	} {
		if got := against(tt.from, tt.to) != ""; got != tt.bad {
			t.Errorf("%s → %s: against = %v, want %v", tt.from, tt.to, got, tt.bad)
		}
	}
	graph := map[string]map[string]bool{"a": {"b": true}, "b": {"c": true}, "c": {"a": true}, "d": {"a": true}}
	if c := cycleFrom(graph, "a"); len(c) != 4 {
		t.Errorf("cycle from a = %v, want a → b → c → a", c)
	}
	if c := cycleFrom(graph, "d"); c != nil {
		t.Errorf("cycle from d = %v, want none", c)
	}
	if unit("internal/pathform") != unit("internal/jsonenc") {
		t.Error("the packages under internal/ are not one folder for the cycle test")
	}
}
