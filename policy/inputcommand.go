package policy

import (
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// input.command is built from Command directly rather than through
// its JSON encoding (objectValue), which costs a run_command request some
// 200 allocations. TestCommandValueMatchesObjectValue holds the two to the
// same value, member order and numbers included, and checkInputValue the
// whole document to the legacy conversion.

// Keys of input.command and of its path_args, in the order of the
// members of Command and CommandPathArg (their JSON order).
var (
	commandKeys = keyTerms("argv", "program", "program_name", "resolved", "args",
		"options_end", "first_operand", "path_args", "env_names", "has_stdin",
		"script_runner", "excludes", "excludes_at", "git_objects")
	gitObjectKeys = keyTerms("index", "arg", "type", "run")
	pathArgKeys   = keyTerms("index", "value", "canonical", "inside", "workspace", "sensitivity", "write")
)

func keyTerms(names ...string) []*ast.Term {
	keys := make([]*ast.Term, len(names))
	for i, n := range names {
		keys[i] = ast.StringTerm(n)
	}
	return keys
}

// commandValue returns f as OPA's value, the value objectValue(f, nil)
// returns. ok is false when a string of f is not valid UTF-8, which the
// JSON encoding refuses; the caller then takes objectValue's answer.
func commandValue(f Command) (v ast.Value, ok bool) {
	if !commandValidUTF8(f) {
		return nil, false
	}
	terms := make(termBatch, 6+len(f.Argv)+len(f.Args)+len(f.EnvNames)+len(f.Excludes)+5*len(f.PathArgs)+3*len(f.GitObjects))
	k := commandKeys
	return ast.NewObject(
		[2]*ast.Term{k[0], terms.value(stringsArray(&terms, f.Argv))},
		[2]*ast.Term{k[1], terms.str(f.Program)},
		[2]*ast.Term{k[2], terms.str(f.ProgramName)},
		[2]*ast.Term{k[3], terms.str(f.Resolved)},
		[2]*ast.Term{k[4], terms.value(stringsArray(&terms, f.Args))},
		[2]*ast.Term{k[5], ast.InternedTerm(f.OptionsEnd)},
		[2]*ast.Term{k[6], ast.InternedTerm(f.FirstOperand)},
		[2]*ast.Term{k[7], ast.NewTerm(pathArgsArray(&terms, f.PathArgs))},
		[2]*ast.Term{k[8], ast.NewTerm(stringsArray(&terms, f.EnvNames))},
		[2]*ast.Term{k[9], ast.InternedTerm(f.HasStdin)},
		[2]*ast.Term{k[10], terms.str(f.ScriptRunner)},
		[2]*ast.Term{k[11], ast.NewTerm(stringsArray(&terms, f.Excludes))},
		[2]*ast.Term{k[12], ast.InternedTerm(f.ExcludesAt)},
		[2]*ast.Term{k[13], gitObjectsTerm(&terms, f.GitObjects)},
	), true
}

// gitObjectsTerm is git_objects as an OPA array of objects.
func gitObjectsTerm(terms *termBatch, objs []CommandGitObject) *ast.Term {
	elems := make([]*ast.Term, len(objs))
	for i, o := range objs {
		elems[i] = ast.NewTerm(ast.NewObject(
			[2]*ast.Term{gitObjectKeys[0], ast.InternedTerm(o.Index)},
			[2]*ast.Term{gitObjectKeys[1], terms.str(o.Arg)},
			[2]*ast.Term{gitObjectKeys[2], terms.str(o.Type)},
			[2]*ast.Term{gitObjectKeys[3], terms.str(o.Run)},
		))
	}
	return ast.NewTerm(ast.NewArray(elems...))
}

// stringsArray is ss as an OPA array, its terms taken from terms.
func stringsArray(terms *termBatch, ss []string) *ast.Array {
	elems := make([]*ast.Term, len(ss))
	for i, s := range ss {
		elems[i] = terms.str(s)
	}
	return ast.NewArray(elems...)
}

// pathArgsArray is path_args as an OPA array of objects.
func pathArgsArray(terms *termBatch, pas []CommandPathArg) *ast.Array {
	elems := make([]*ast.Term, len(pas))
	k := pathArgKeys
	for i, pa := range pas {
		elems[i] = ast.NewTerm(ast.NewObject(
			[2]*ast.Term{k[0], ast.InternedTerm(pa.Index)},
			[2]*ast.Term{k[1], terms.str(pa.Value)},
			[2]*ast.Term{k[2], terms.str(pa.Canonical)},
			[2]*ast.Term{k[3], ast.InternedTerm(pa.Inside)},
			[2]*ast.Term{k[4], terms.str(pa.Workspace)},
			[2]*ast.Term{k[5], terms.str(pa.Sensitivity)},
			[2]*ast.Term{k[6], ast.InternedTerm(pa.Write)},
		))
	}
	return ast.NewArray(elems...)
}

// commandValidUTF8 reports whether every string of f is valid UTF-8.
func commandValidUTF8(f Command) bool {
	for _, list := range [][]string{f.Argv, f.Args, f.EnvNames, f.Excludes, {f.Program, f.ProgramName, f.Resolved, f.ScriptRunner}} {
		for _, s := range list {
			if !utf8.ValidString(s) {
				return false
			}
		}
	}
	for _, pa := range f.PathArgs {
		if !utf8.ValidString(pa.Value) || !utf8.ValidString(pa.Canonical) || !utf8.ValidString(pa.Workspace) {
			return false
		}
	}
	return true
}
