package cliflag

import (
	"bytes"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		args     []string
		code     int
		ok       bool
		pos      string
		out, err string
	}{
		{[]string{"-h"}, 0, false, "", "usage: deskbridge x", ""},
		{[]string{"--help"}, 0, false, "", "-v\tbe loud", ""},
		{[]string{"a", "--help"}, 0, false, "a", "usage:", ""},
		{[]string{"--nope"}, 2, false, "", "", "deskbridge x: flag provided but not defined: -nope (see deskbridge x --help)\n"},
		{[]string{"a", "-v", "b"}, 0, true, "a b", "", ""},
		{[]string{"a", "--", "-v"}, 0, true, "a -v", "", ""},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		c := New("x", "usage: deskbridge x\n", &out, &errOut)
		v := c.Flags.Bool("v", false, "be loud")
		code, ok := c.Parse(tt.args)
		if code != tt.code || ok != tt.ok || strings.Join(c.Pos, " ") != tt.pos ||
			!strings.Contains(out.String(), tt.out) || errOut.String() != tt.err && tt.err != "" {
			t.Errorf("%v: code %d ok %v pos %q v %v\nout %q\nerr %q", tt.args, code, ok, c.Pos, *v, &out, &errOut)
		}
		if tt.err == "" && errOut.Len() > 0 {
			t.Errorf("%v: stderr %q", tt.args, &errOut)
		}
	}
}
