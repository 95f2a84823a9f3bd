package cmdfacts

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/deskbridge/deskbridge/policy"
)

// Facts is what the policy sees of a command, as `input.command`.
type Facts = policy.Command

// PathArg is an argument, or the value of an `--option=value` or glued
// `-Ivalue` argument, that may name a path, resolved against the working
// folder.
type PathArg = policy.CommandPathArg

// Locate maps an absolute, cleaned path to where it lies. The host
// provides it from its workspace configuration and sensitivity patterns.
type Locate func(abs string) Place

// Place is where a path argument lies: its canonical form (symlinks
// resolved), the workspace it lies in (Inside is false when it lies in
// none), its sensitivity class ("secret", "executes" or "") and whether
// it exists.
type Place struct {
	Canonical   string
	Workspace   string
	Inside      bool
	Sensitivity string
	Exists      bool
}

// Request is the part of a run_command request the facts are built from.
type Request struct {
	Command string
	Argv    []string
	Cwd     string // absolute; confined by the policy through paths.cwd
	// GitTop is the top of the git working tree that holds Cwd, or "":
	// where a git object name's path (`HEAD:.env`) lies.
	GitTop string
	// Secret are the patterns of the secret class (facts.DefaultSecret
	// and the configuration's), which readers of many files are given as
	// exclusions.
	Secret   []string
	Env      map[string]string
	HasStdin bool
}

// Build parses the request's command and computes its facts. The error is a
// *protocol.Error with code INVALID_REQUEST.
func Build(req Request, p Platform, locate Locate) (Facts, error) {
	argv, err := Parse(req.Command, req.Argv)
	if err != nil {
		return Facts{}, err
	}
	f := Facts{
		Argv:         argv,
		Program:      argv[0],
		ProgramName:  p.Name(argv[0]),
		Resolved:     p.Resolve(argv[0]),
		Args:         argv[1:],
		OptionsEnd:   OptionsEnd(argv[1:]),
		FirstOperand: FirstOperand(argv[1:]),
		PathArgs:     pathArgs(argv, p.Name(argv[0]), req.Cwd, req.GitTop, locate),
		EnvNames:     envNames(req.Env),
		HasStdin:     req.HasStdin,
	}
	f.ScriptRunner = scriptRunner(strings.ToLower(f.ProgramName), f.Args)
	f.ExcludesAt, f.Excludes = excludes(f.ProgramName, argv, req.Secret)
	if f.Excludes == nil {
		f.Excludes = []string{}
	}
	if strings.EqualFold(f.ProgramName, "git") {
		f.GitObjects = gitObjects(argv, f.FirstOperand, f.OptionsEnd, req.Cwd, req.GitTop)
	}
	if f.GitObjects == nil {
		f.GitObjects = []GitObject{}
	}
	return f, nil
}

func envNames(env map[string]string) []string {
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// scan reads the path arguments of one argument vector.
type scan struct {
	program string // the program's name as policies compare it
	cwd     string
	gitTop  string
	locate  Locate
	out     []PathArg
}

func pathArgs(argv []string, program, cwd, gitTop string, locate Locate) []PathArg {
	s := &scan{program: program, cwd: cwd, gitTop: gitTop, locate: locate, out: []PathArg{}}
	options := true
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case options && a == "--":
			options = false
		case options && s.gitObject(i, a):
		case !options || !strings.HasPrefix(a, "-") || a == "-":
			if a != "" && a != "-" {
				s.add(i, a, false)
			}
		default:
			i = s.option(argv, i)
		}
	}
	return s.out
}

// option reads the option argv[i] and returns the index of its last
// argument (i, or i+1 when it takes the next argument as its file).
func (s *scan) option(argv []string, i int) int {
	a := argv[i]
	name, value, glued := strings.Cut(a, "=")
	if isFile, write := fileOption(s.program, name); isFile {
		return s.file(argv, i, value, glued, write)
	}
	if !glued {
		if rest, write, ok := shortFileOption(s.program, a); ok {
			return s.file(argv, i, a[rest:], rest < len(a), write)
		}
	}
	if v, ok := optionValue(a); ok && !s.gitObject(i, v) {
		s.addIf(i, v)
	}
	return i
}

// gitObject adds the path of a git object name (`HEAD:.env`, `:0:.env`)
// given to git before "--", as an argument or an option's value
// (`-L1,9:.env`), and reports whether a is one.
func (s *scan) gitObject(i int, a string) bool {
	if s.program != "git" {
		return false
	}
	p, ok := gitRevPath(a)
	if !ok {
		return false
	}
	pa := PathArg{Index: i, Value: p}
	abs := gitPath(p, s.cwd, s.gitTop)
	if !filepath.IsAbs(abs) {
		s.out = append(s.out, pa)
		return true
	}
	pa.Canonical = abs
	if s.locate != nil {
		pl := s.locate(abs)
		pa.Canonical, pa.Workspace, pa.Inside, pa.Sensitivity = pl.Canonical, pl.Workspace, pl.Inside, pl.Sensitivity
	}
	s.out = append(s.out, pa)
	return true
}

// file adds the file a file option names: its glued value, or the next
// argument (whatever it begins with, as the program reads it).
func (s *scan) file(argv []string, i int, value string, glued, write bool) int {
	if glued {
		s.add(i, value, write)
		return i
	}
	if i+1 < len(argv) {
		s.add(i+1, argv[i+1], write)
		return i + 1
	}
	return i
}

// addIf adds an option's value when it looks like a path or names a file
// that exists.
func (s *scan) addIf(i int, value string) {
	pa, exists := s.resolve(i, value)
	if looksLikePath(value) || exists {
		s.out = append(s.out, pa)
	}
}

func (s *scan) add(i int, value string, write bool) {
	if value == "" {
		return
	}
	pa, _ := s.resolve(i, value)
	pa.Write = write
	s.out = append(s.out, pa)
}

// optionValue returns the value of an `--option=value` or `-o=value`
// argument, or of a glued short option (`-Ivalue`).
func optionValue(a string) (string, bool) {
	if i := strings.IndexByte(a, '='); i >= 0 {
		return a[i+1:], a[i+1:] != ""
	}
	if !strings.HasPrefix(a, "--") && len(a) > 2 {
		return a[2:], true
	}
	return "", false
}

// pathValue returns the part of an argument that may name a path. Every
// operand counts (a word is a file relative to the working folder); of an
// option, only a value that looks like a path does (and, in pathArgs, one
// that names an existing file or a program's file option's).
func pathValue(a string, options bool) (string, bool) {
	if !options || !strings.HasPrefix(a, "-") || a == "-" {
		return a, a != "" && a != "-"
	}
	v, ok := optionValue(a)
	return v, ok && looksLikePath(v)
}

func looksLikePath(v string) bool {
	if v == "" {
		return false
	}
	return strings.ContainsAny(v, `/\`) || v[0] == '.' || v[0] == '~' ||
		filepath.VolumeName(v) != "" || strings.Contains(v, ":")
}

// resolve places value, relative to the working folder, and reports
// whether it exists.
func (s *scan) resolve(i int, value string) (PathArg, bool) {
	pa := PathArg{Index: i, Value: value}
	abs, ok := absolute(value, s.cwd)
	if !ok {
		return pa, false
	}
	if s.locate == nil {
		pa.Canonical = abs
		return pa, false
	}
	pl := s.locate(abs)
	pa.Canonical, pa.Workspace, pa.Inside, pa.Sensitivity = pl.Canonical, pl.Workspace, pl.Inside, pl.Sensitivity
	return pa, pl.Exists
}

// absolute joins value to cwd. A Windows path with a drive but no root
// (`D:foo`) or a path relative to a missing cwd cannot be resolved.
func absolute(value, cwd string) (string, bool) {
	if filepath.IsAbs(value) {
		return filepath.Clean(value), true
	}
	if filepath.VolumeName(value) != "" || strings.HasPrefix(value, `\`) || strings.HasPrefix(value, "/") {
		return "", false
	}
	if !filepath.IsAbs(cwd) {
		return "", false
	}
	return filepath.Join(cwd, value), true
}
