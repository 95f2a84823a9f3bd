package cmdfacts

import (
	"slices"
	"strings"
)

// gitReaders are the git subcommands that print the content of many paths
// (diffs, matches) and take pathspecs: git's own exclusions keep the
// secret class out of what they print.
var gitReaders = map[string]bool{
	"log": true, "show": true, "diff": true, "grep": true, "reflog": true,
	"status": true, "whatchanged": true,
}

// excludes returns the arguments that keep files of the secret class out
// of a program that reads many files, and the index in argv where the host
// inserts them: for git's readers, a pathspec exclusion per pattern
// (`:(top,exclude,glob,icase)**/.env` and the same for what lies below)
// appended at the end; for grep, rg and diff, their exclusion options for
// each pattern's last name (`--exclude`/`--exclude-dir`, `--iglob=!…`,
// `--exclude`), matched without case, inserted where options end, after
// the request's own (grep and rg let a later option win).
func excludes(program string, argv, secret []string) (at int, out []string) {
	args := argv[1:]
	end := 1 + OptionsEnd(args)
	switch program {
	case "git":
		if !gitReader(args) {
			return 0, nil
		}
		if slices.Contains(args, "--end-of-options") && !slices.Contains(args, "--") {
			out = append(out, "--")
		}
		for _, p := range secret {
			p = strings.Trim(strings.ReplaceAll(p, `\`, "/"), "/")
			out = append(out, ":(top,exclude,glob,icase)**/"+p, ":(top,exclude,glob,icase)**/"+p+"/**")
		}
		return len(argv), out
	case "grep":
		for _, n := range lastNames(secret) {
			out = append(out, "--exclude="+n, "--exclude-dir="+n)
		}
	case "rg":
		for _, n := range lastNames(secret) {
			out = append(out, "--iglob=!"+n)
		}
	case "diff":
		for _, n := range lastNames(secret) {
			out = append(out, "--exclude="+n)
		}
	default:
		return 0, nil
	}
	return end, out
}

// gitReader reports whether git's subcommand (the first operand; the
// policy refuses global options that take a value) is a reader of many
// paths.
func gitReader(args []string) bool {
	i := FirstOperand(args)
	if i == len(args) {
		return false
	}
	sub := args[i]
	if sub == "reflog" && i+1 < len(args) && slices.Contains([]string{"expire", "delete", "exists"}, args[i+1]) {
		return false
	}
	return gitReaders[sub]
}

// lastNames are the last names of the patterns, each as a glob that
// matches it in any case (`.[eE][nN][vV]`), once each: a pattern of
// several names (`.git/config`) is excluded by its last, which is wider
// than the pattern and so never lets a secret through.
func lastNames(patterns []string) []string {
	var out []string
	for _, p := range patterns {
		p = strings.Trim(strings.ReplaceAll(p, `\`, "/"), "/")
		if p == "" {
			continue
		}
		n := foldGlob(p[strings.LastIndexByte(p, '/')+1:])
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// foldGlob turns each letter of a glob outside a bracket expression into a
// bracket of both its cases.
func foldGlob(g string) string {
	var b strings.Builder
	inBracket := false
	for _, r := range g {
		switch {
		case r == '[':
			inBracket = true
		case r == ']':
			inBracket = false
		}
		lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r))
		if inBracket || lo == up {
			b.WriteRune(r)
			continue
		}
		b.WriteString("[" + lo + up + "]")
	}
	return b.String()
}

// RunArgv is the argument vector the host runs: f.Argv with the git
// object operands pinned to the ids they were judged by (git_objects'
// run), and f.Excludes inserted at f.ExcludesAt.
func RunArgv(f Facts) []string {
	argv := pinGitObjects(f.Argv, f.GitObjects)
	if len(f.Excludes) == 0 || f.ExcludesAt < 1 || f.ExcludesAt > len(argv) {
		return argv
	}
	out := make([]string, 0, len(argv)+len(f.Excludes))
	out = append(out, argv[:f.ExcludesAt]...)
	out = append(out, f.Excludes...)
	return append(out, argv[f.ExcludesAt:]...)
}
