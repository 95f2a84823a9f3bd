package policy

import (
	"context"
	"strings"
	"testing"
)

const passingTeamTest = `package deskbridge.policies.team_test

import rego.v1

test_ok if true
`

// TestServedTestsRunOncePerSet: a set to serve whose own test fails is
// refused, naming the test; one whose tests pass is marked, and its mark
// names the tests too, so a changed test is run again on the next start.
func TestServedTestsRunOncePerSet(t *testing.T) {
	dir := t.TempDir()
	src, err := Dir("../rego")
	if err != nil {
		t.Fatal(err)
	}
	src.Tests["team_test.rego"] = passingTeamTest
	if _, err := New(context.Background(), src, Options{Data: benchConfig, CheckedDir: dir, Serve: true}); err != nil {
		t.Fatal(err)
	}
	if !wasChecked(dir, src, true) {
		t.Fatal("a served set whose tests pass is not marked")
	}
	if wasChecked(dir, src, false) {
		t.Fatal("the mark of a served set counts for a set not to serve")
	}
	src.Tests["team_test.rego"] = strings.Replace(passingTeamTest, "if true", "if false", 1)
	if wasChecked(dir, src, true) {
		t.Fatal("a changed test counts as run")
	}
	_, err = New(context.Background(), src, Options{Data: benchConfig, CheckedDir: dir, Serve: true})
	if err == nil || !strings.Contains(err.Error(), "team_test.rego:5: deskbridge.policies.team_test.test_ok") {
		t.Fatalf("a failing test: %v", err)
	}
	if wasChecked(dir, src, true) {
		t.Fatal("a set whose test fails is marked")
	}
}

// TestContractAcceptsTheDefaults: the embedded policy and the walkthrough's
// folder keep to what DeskBridge reads.
func TestContractAcceptsTheDefaults(t *testing.T) {
	src, err := Dir("../rego")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range Check(src) {
		t.Errorf("%s", p)
	}
}

// TestReadDenialRefusesABadPriority: a priority the type check could not
// see (built by a function) is refused at run time, never read as 0.
func TestReadDenialRefusesABadPriority(t *testing.T) {
	src := Embedded()
	src.Modules["team.rego"] = `package deskbridge.policies.team

import rego.v1

deny contains object.union(base, {"priority": "high"}) if input.request.action == "read_file"

base := {"code": "PERMISSION_DENIED", "rule": "team.x", "message": "m"}
`
	e, err := New(context.Background(), src, Options{Data: benchConfig, Serve: true})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Version: InputVersion, Request: Request{ID: "1", Action: "read_file", Channel: "cli"}}
	doc, err := in.Document()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Decide(context.Background(), doc); err == nil || !strings.Contains(err.Error(), "priority") {
		t.Fatalf("Decide: %v, want a priority error", err)
	}
}

// BenchmarkWarmStartMark measures what a warm start pays for the checks of
// a set to serve: finding its mark, whose name hashes the tests too.
func BenchmarkWarmStartMark(b *testing.B) {
	src, err := Dir("../rego")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for _, serve := range []bool{false, true} {
		b.Run(map[bool]string{false: "compile-only", true: "serve"}[serve], func(b *testing.B) {
			for b.Loop() {
				wasChecked(dir, src, serve)
			}
		})
	}
}

// TestUnusedMark: a rule or package marked custom.deskbridge.unused is
// neither reported as unread nor its data references checked; unmarked,
// both are errors.
func TestUnusedMark(t *testing.T) {
	const rule = `package deskbridge.policies.team

import rego.v1

%s
helper if "x" in data.team.missing
`
	const lib = `%s
package teamlib

import rego.v1

glob_of(p) := concat("/", [p, "**"])
`
	mark := "# METADATA\n# custom:\n#   deskbridge:\n#     unused: true"
	pkgMark := "# METADATA\n# scope: package\n# custom:\n#   deskbridge:\n#     unused: true"
	for _, c := range []struct {
		name, file, text string
		errors           int
	}{
		{"unmarked rule", "team.rego", strings.Replace(rule, "%s\n", "", 1), 2},
		{"marked rule", "team.rego", strings.Replace(rule, "%s", mark, 1), 0},
		{"unmarked package", "lib.rego", strings.Replace(lib, "%s\n", "", 1), 1},
		{"marked package", "lib.rego", strings.Replace(lib, "%s", pkgMark, 1), 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := Dir("../rego")
			if err != nil {
				t.Fatal(err)
			}
			src.Modules[c.file] = c.text
			var errs []Problem
			for _, p := range Check(src) {
				if !p.Warning {
					errs = append(errs, p)
				}
			}
			if len(errs) != c.errors {
				t.Fatalf("%d errors, want %d: %v", len(errs), c.errors, errs)
			}
		})
	}
}
