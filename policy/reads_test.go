package policy

import (
	"context"
	"testing"
)

// ReadsInput answers false only for members no rule refers to, inside or
// around; these are the members the host masks (engine/logmask.go), which
// the default policy must not read for masked decisions to replay.
func TestReadsInput(t *testing.T) {
	embedded, err := New(context.Background(), Embedded(), Options{Data: benchConfig})
	if err != nil {
		t.Fatal(err)
	}
	for pointer, want := range map[string]bool{
		"/input/url/raw":                     false,
		"/input/url/normalized":              false,
		"/input/request/arguments/url":       false,
		"/input/request/arguments/env/TOKEN": false,
		"/input/request/arguments/argv/2":    false,
		"/input/url":                         true, // input.url.ips is inside it
		"/input/url/ips/0":                   true,
		"/input/command/args/1":              true,
		"/input/request":                     true,
		"/input":                             true,
		"/result/denials":                    true, // not input: always read
		"/inputs/x":                          true,
		"/input/a~1b":                        false,
	} {
		if got := embedded.ReadsInput(pointer); got != want {
			t.Errorf("embedded policy: ReadsInput(%q) = %v, want %v", pointer, got, want)
		}
	}
	for name, c := range map[string]struct {
		module  string
		pointer string
		want    bool
	}{
		"object.get of input whole": {`x := object.get(input, ["url", "raw"], "")`, "/input/request/arguments/env/TOKEN", true},
		"walk of input":             {`x := [p | walk(input, [p, _])]`, "/input/url/raw", true},
		"computed member":           {`x := [v | some k; v := input.request[k]]`, "/input/request/arguments/env/TOKEN", true},
		"computed member elsewhere": {`x := [v | some k; v := input.request[k]]`, "/input/url/raw", false},
		"escaped member":            {`x := input["a/b"]`, "/input/a~1b", true},
		"in a function":             {`f(y) := input.url.raw if y`, "/input/url/raw", true},
		"as a with target":          {"x if {\n\tinput.request.action == \"a\" with input.url.raw as \"a\"\n}", "/input/url/raw", true},
	} {
		e, err := New(context.Background(), withExtra(c.module), Options{Data: benchConfig})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := e.ReadsInput(c.pointer); got != c.want {
			t.Errorf("%s: ReadsInput(%q) = %v, want %v", name, c.pointer, got, c.want)
		}
	}
}
