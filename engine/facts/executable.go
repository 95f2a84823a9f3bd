package facts

import (
	"bytes"
	"path"
	"strings"
)

// Reasons Executable gives for a file that would be a program.
const (
	ExecShebang   = "shebang"   // a script that starts #!
	ExecELF       = "elf"       // a Linux or BSD program
	ExecPE        = "pe"        // a Windows program (MZ)
	ExecMachO     = "mach-o"    // a macOS program
	ExecExtension = "extension" // a name Windows runs (.exe, .bat, .ps1 …)
)

// windowsRuns are the extensions Windows (and its shell) runs as a
// program or script by name alone, without any executable bit.
var windowsRuns = map[string]bool{
	".exe": true, ".com": true, ".bat": true, ".cmd": true, ".ps1": true, ".psm1": true,
	".vbs": true, ".vbe": true, ".jse": true, ".wsf": true, ".wsh": true,
	".msi": true, ".msp": true, ".scr": true, ".cpl": true, ".pif": true, ".hta": true,
	".lnk": true, ".reg": true, ".appref-ms": true, ".application": true,
}

// machOMagic are the first four bytes of Mach-O programs (32 and 64 bit,
// both byte orders) and universal binaries.
var machOMagic = [][]byte{
	{0xfe, 0xed, 0xfa, 0xce}, {0xce, 0xfa, 0xed, 0xfe},
	{0xfe, 0xed, 0xfa, 0xcf}, {0xcf, 0xfa, 0xed, 0xfe},
	{0xca, 0xfe, 0xba, 0xbe},
}

// Executable reports whether a file named name whose content starts with
// head would be a program a person or the system may run, and why: its
// content starts as one (#!, ELF, MZ, Mach-O), or its name ends in an
// extension Windows runs. head may be empty when the content is not known
// yet (a download, a patch): then only the name counts. The name's case
// is ignored, as Windows ignores it.
func Executable(name string, head []byte) (bool, string) {
	switch {
	case bytes.HasPrefix(head, []byte("#!")):
		return true, ExecShebang
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return true, ExecELF
	case bytes.HasPrefix(head, []byte("MZ")):
		return true, ExecPE
	}
	for _, m := range machOMagic {
		if bytes.HasPrefix(head, m) {
			return true, ExecMachO
		}
	}
	if windowsRuns[strings.ToLower(path.Ext(strings.ReplaceAll(name, `\`, "/")))] {
		return true, ExecExtension
	}
	return false, ""
}
