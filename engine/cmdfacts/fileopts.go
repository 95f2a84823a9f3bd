package cmdfacts

import "strings"

// fileOptions are, per program, the options whose value names a file:
// true when the program writes it, false when it reads it. Their value is
// a path argument whatever its spelling (`--from-file=credentials`,
// `-o config`, `--outp=config`), unlike other options' values, which are
// only when they look like a path or name an existing file.
var fileOptions = map[string]map[string]bool{
	"sort": {"-o": true, "--output": true, "-T": true, "--temporary-directory": true,
		"--files0-from": false, "--random-source": false},
	"diff": {"--from-file": false, "--to-file": false, "-X": false, "--exclude-from": false},
	"grep": {"-f": false, "--file": false, "--exclude-from": false},
	"rg":   {"-f": false, "--file": false, "--ignore-file": false},
	"wc":   {"--files0-from": false},
	"git": {"-F": false, "--file": false, "--pathspec-from-file": false, "--contents": false,
		"-o": true, "--output": true, "--output-directory": true},
	"go": {"-o": true, "-coverprofile": true, "-cpuprofile": true, "-memprofile": true,
		"-blockprofile": true, "-mutexprofile": true, "-trace": true, "-outputdir": true,
		"-modfile": false, "-overlay": false, "-pgo": false},
	"node": {"--redirect-warnings": true, "--cpu-prof-dir": true, "--heap-prof-dir": true,
		"--diagnostic-dir": true, "--report-directory": true, "--env-file": false},
}

// fileOption reports whether opt (an option name without its value) is
// one of program's file options, and whether the program writes it. A
// long option matches by a prefix of two letters or more too (`--outp`
// for `--output`), as getopt and git read abbreviations; a go flag is the
// same with one dash or two.
func fileOption(program, opt string) (isFile, write bool) {
	opts := fileOptions[program]
	if opts == nil || len(opt) < 2 || opt[0] != '-' {
		return false, false
	}
	if w, ok := opts[opt]; ok {
		return true, w
	}
	if program == "go" {
		if w, ok := opts[strings.TrimPrefix(opt, "-")]; ok {
			return true, w
		}
	}
	if !strings.HasPrefix(opt, "--") || len(opt) < 4 {
		return false, false
	}
	for name, w := range opts {
		if strings.HasPrefix(name, opt) {
			isFile, write = true, write || w
		}
	}
	return isFile, write
}

// shortFileOption returns, for a cluster of short options such as `-uo`
// or `-oout`, the position in a after its first file option letter and
// whether the program writes that file; ok is false when the cluster has
// none.
func shortFileOption(program, a string) (rest int, write, ok bool) {
	if strings.HasPrefix(a, "--") || len(a) < 2 || a[0] != '-' || program == "go" {
		return 0, false, false
	}
	for i := 1; i < len(a); i++ {
		if w, found := fileOptions[program]["-"+a[i:i+1]]; found {
			return i + 1, w, true
		}
	}
	return 0, false, false
}
