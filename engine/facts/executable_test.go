package facts

import "testing"

func TestExecutable(t *testing.T) {
	tests := []struct {
		name   string
		head   string
		reason string // "" for not a program
	}{
		{"run.sh", "#!/bin/sh\necho hi\n", ExecShebang},
		{"notes.txt", "#!/usr/bin/env python3\n", ExecShebang},
		{"tool", "\x7fELF\x02\x01\x01", ExecELF},
		{"setup.dat", "MZ\x90\x00", ExecPE},
		{"app", "\xcf\xfa\xed\xfe\x07", ExecMachO},
		{"installer.EXE", "", ExecExtension},
		{`C:\Users\ana\Desktop\run.Bat`, "echo", ExecExtension},
		{"profile.ps1", "Write-Host hi", ExecExtension},
		{"shortcut.lnk", "", ExecExtension},
		{"readme.md", "# Title\n", ""},
		{"app.js", "console.log(1)", ""},
		{"data.json", `{"a":1}`, ""},
		{"comment.txt", "# not a shebang", ""},
		{"mz.txt", "mz lower case", ""},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		ok, reason := Executable(tt.name, []byte(tt.head))
		if ok != (tt.reason != "") || reason != tt.reason {
			t.Errorf("Executable(%q, %q) = %v, %q; want %q", tt.name, tt.head, ok, reason, tt.reason)
		}
	}
}
