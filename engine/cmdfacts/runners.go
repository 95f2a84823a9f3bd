package cmdfacts

import (
	"slices"
	"strings"
)

// Script runner kinds, as input.command.script_runner gives them.
const (
	// GitHooks is git's subcommands that run hooks by design; the host
	// turns them off (core.hooksPath is the null device), so the default
	// policy lets them run.
	GitHooks = "git-hooks"
)

// alwaysRunners are programs whose every use runs what a workspace file
// defines (a Makefile, justfile, tox.ini, noxfile.py, conftest.py, Rakefile,
// build.gradle, pom.xml, build.xml, tasks.py).
var alwaysRunners = []string{
	"make", "gmake", "just", "tox", "nox", "pytest", "py.test", "rake", "gradle", "gradlew",
	"mvn", "ant", "invoke", "npx", "bunx", "pnpx",
}

// packageSafe are subcommands of npm, yarn and pnpm that run no script of
// package.json (every other one may: run, test, start, install, ci, pack,
// publish, version, exec, a script's own name for yarn and pnpm …).
var packageSafe = []string{
	"help", "ls", "list", "ll", "la", "view", "info", "show", "v", "outdated", "root", "prefix",
	"search", "fund", "explain", "why", "query", "ping", "whoami",
}

// cargoRunners are cargo's subcommands that build the package, and so run
// its build.rs and procedural macros.
var cargoRunners = []string{
	"build", "b", "run", "r", "test", "t", "bench", "check", "c", "install", "doc", "d",
	"clippy", "fix", "rustc", "rustdoc", "publish", "package",
}

// gitHookRunners are git's subcommands that run hooks.
var gitHookRunners = []string{
	"commit", "merge", "rebase", "am", "push", "checkout", "switch", "pull", "cherry-pick",
	"revert", "stash", "gc", "worktree", "clone",
}

// pythonRunners are modules whose `python -m` runs workspace-defined code
// (conftest.py, tox.ini, a build backend, setup.py).
var pythonRunners = []string{"pytest", "tox", "nox", "pip", "build", "invoke"}

// scriptRunner returns the kind of a program that runs scripts the
// workspace defines, or "": the program's name ("npm", "make"), or
// "go generate", "python -m pytest", GitHooks.
func scriptRunner(program string, args []string) string {
	sub := ""
	if i := FirstOperand(args); i < len(args) {
		sub = args[i]
	}
	switch {
	case slices.Contains(alwaysRunners, program):
		return program
	case program == "npm" || program == "pnpm" || program == "yarn" || program == "bun":
		if packageRunner(program, sub, args) {
			return program
		}
	case program == "go" && sub == "generate":
		return "go generate"
	case program == "cargo" && slices.Contains(cargoRunners, sub):
		return "cargo " + sub
	case program == "git" && slices.Contains(gitHookRunners, sub):
		return GitHooks
	case program == "python" || program == "python3":
		if m := pythonModule(args); slices.Contains(pythonRunners, m) {
			return "python -m " + m
		}
	}
	return ""
}

// packageRunner reports whether a package manager's subcommand may run a
// script of package.json: any but the safe ones and `audit` without fix;
// with no subcommand, yarn and bun install (npm and pnpm print help).
func packageRunner(program, sub string, args []string) bool {
	switch {
	case sub == "":
		return program == "yarn" || program == "bun"
	case sub == "audit":
		return slices.Contains(args, "fix")
	}
	return !slices.Contains(packageSafe, sub)
}

// pythonModule is the module of `-m module` or `-mmodule`, or "".
func pythonModule(args []string) string {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return ""
		}
		if a == "-m" && i+1 < len(args) {
			return args[i+1]
		}
		if m, ok := strings.CutPrefix(a, "-m"); ok && m != "" {
			return m
		}
	}
	return ""
}
