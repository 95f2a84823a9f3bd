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
// none) and its sensitivity class ("secret", "executes" or "").
type Place struct {
	Canonical   string
	Workspace   string
	Inside      bool
	Sensitivity string
}

// Request is the part of a run_command request the facts are built from.
type Request struct {
	Command  string
	Argv     []string
	Cwd      string // absolute; confined by the policy through paths.cwd
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
		PathArgs:     pathArgs(argv, req.Cwd, locate),
		EnvNames:     envNames(req.Env),
		HasStdin:     req.HasStdin,
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

func pathArgs(argv []string, cwd string, locate Locate) []PathArg {
	out := []PathArg{}
	options := true
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		if options && a == "--" {
			options = false
			continue
		}
		value, ok := pathValue(a, options)
		if !ok {
			continue
		}
		out = append(out, resolveArg(i, value, cwd, locate))
	}
	return out
}

// pathValue returns the part of an argument that may name a path. Every
// operand counts (a word is a file relative to the working folder); of an
// option, only a value that looks like a path does.
func pathValue(a string, options bool) (string, bool) {
	if !options || !strings.HasPrefix(a, "-") || a == "-" {
		return a, a != "" && a != "-"
	}
	if i := strings.IndexByte(a, '='); i >= 0 {
		return a[i+1:], looksLikePath(a[i+1:])
	}
	if !strings.HasPrefix(a, "--") && len(a) > 2 && looksLikePath(a[2:]) {
		return a[2:], true
	}
	return "", false
}

func looksLikePath(v string) bool {
	if v == "" {
		return false
	}
	return strings.ContainsAny(v, `/\`) || v[0] == '.' || v[0] == '~' ||
		filepath.VolumeName(v) != "" || strings.Contains(v, ":")
}

func resolveArg(i int, value, cwd string, locate Locate) PathArg {
	pa := PathArg{Index: i, Value: value}
	abs, ok := absolute(value, cwd)
	if !ok {
		return pa
	}
	if locate == nil {
		pa.Canonical = abs
		return pa
	}
	pl := locate(abs)
	pa.Canonical, pa.Workspace, pa.Inside, pa.Sensitivity = pl.Canonical, pl.Workspace, pl.Inside, pl.Sensitivity
	return pa
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
