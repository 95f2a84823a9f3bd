# Command whitelist for run_command: which programs may run, with which
# arguments, environment names and paths. Facts come from input.command
# (engine/cmdfacts) and input.paths.cwd; data.config.commands.allow extends
# the default programs. Wrappers and shells are refused whatever the
# configuration says, because they would run a program these rules never saw.
package deskbridge.policies.builtin

default_programs := {
	"git", "go", "node", "npm", "python", "python3", "ls", "cat", "echo",
	"find", "grep", "rg", "head", "tail", "wc", "diff", "sort", "pwd",
}

wrappers := {
	"env", "xargs", "nice", "timeout", "nohup", "busybox", "npx", "sudo", "doas",
	"su", "runuser", "pkexec", "stdbuf", "setsid", "chroot", "nsenter", "unshare",
	"ionice", "taskset", "chrt", "prlimit", "strace", "ltrace", "gdb", "watch",
	"script", "time", "flock", "firejail", "bwrap", "systemd-run", "start",
	"parallel", "expect", "rlwrap", "wsl", "runas", "toybox",
}

shells := {
	"sh", "bash", "dash", "zsh", "ksh", "mksh", "fish", "csh", "tcsh", "ash",
	"cmd", "powershell", "pwsh", "command", "exec", "eval", "source",
}

# Every deny rule begins with input.request.action == "run_command": OPA
# indexes that equality, so for any other action none of these rules runs.
# The rules of one program (program_denials) run only through the deny
# rule that selects them by name.
#
# A rule evaluated costs a decision more than the expressions it holds, so
# the rules here name constant sets (DeskBridge puts their value in before
# OPA's rule index is built, so naming one costs nothing), use builtins over
# rules (strings.any_suffix_match, array.slice), and the host's argument
# facts input.command.options_end and input.command.first_operand (each
# read through one rule that computes it when an input lacks it).

denial(rule, message) := {
	"code": "COMMAND_NOT_ALLOWED",
	"rule": concat(".", ["commands", rule]),
	"message": message,
	"priority": 60,
}

# cmd is input.command; the rules here read input.command directly, one
# rule fewer to evaluate per decision.
# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
cmd := input.command

name := lower(input.command.program_name)

args := object.get(input.command, "args", [])

# program_allowed holds when the program is a default one or named in the
# configuration (checked without building the whole set on each decision).
program_allowed if name in default_programs

program_allowed if {
	some p in data.config.commands.allow
	lower(p) == name
}

# ---- program -------------------------------------------------------------

deny contains denial("not_allowed", "The program is not on the command whitelist; add it to commands.allow or use another action.") if {
	input.request.action == "run_command"
	not program_allowed
}

deny contains denial("not_resolved", "The program is not installed in a system folder; programs from the workspace or PATH never run.") if {
	input.request.action == "run_command"
	object.get(input.command, "resolved", "") == ""
}

# The wrapper and shell rules spell wrappers and shells out: a rule's set
# costs a rule evaluation per decision, a literal nothing. Tests hold every
# member of the named sets to the rules.
deny contains denial("wrapper", "Wrappers that run another program are refused; run the program itself.") if {
	input.request.action == "run_command"
	name in wrappers
}

deny contains denial("shell", "Shells are refused; give the program and its arguments directly.") if {
	input.request.action == "run_command"
	name in shells
}

deny contains denial("batch_file", "Batch files are refused on Windows; run a program.") if {
	input.request.action == "run_command"
	strings.any_suffix_match(name, {".bat", ".cmd"})
}

# ---- working folder, path arguments, environment --------------------------

deny contains denial("cwd_outside", "The working folder must be inside a workspace.") if {
	input.request.action == "run_command"
	not input.paths.cwd.inside
}

deny contains denial("path_outside", sprintf("Argument %d names a path outside the workspace; use a path inside it.", [pa.index])) if {
	input.request.action == "run_command"
	some pa in input.command.path_args
	not pa.inside
}

# A secret (a key, credential or .env file; the class input.paths gives
# the paths of other actions) is not named to a command either: what
# read_file refuses to return, `cat .env` does not print. A command can
# still reach a secret it is not given by name (`grep -r`, a script);
# docs/writing-policies.md says what this rule does not cover.
deny contains denial("path_secret", sprintf("Argument %d names a secret file (a key, credential or environment file), which commands are not given either; copy what you need by hand.", [pa.index])) if {
	input.request.action == "run_command"
	some pa in input.command.path_args
	pa.sensitivity == "secret"
}

# A file a program writes (an output option its rules in engine/cmdfacts
# know, such as sort's --output or go's -coverprofile) is judged as a
# write: a file that runs later is not written by a command, as
# sensitivity.executes refuses write_file of it.
deny contains denial("path_write", sprintf("Argument %d names a file that runs code later (a hook, task or start-up file) as the program's output; write somewhere else.", [pa.index])) if {
	input.request.action == "run_command"
	some pa in input.command.path_args
	pa.write
	pa.sensitivity == "executes"
}

# A working folder inside .git (or another folder of files that run later)
# is refused: every bare word a command writes there is a hook or a
# repository's configuration. (A working folder in a secret folder is
# sensitivity.secret's; one in a workspace that holds the host's own files
# the host refuses natively, whatever the policy says.)
deny contains denial("cwd_sensitive", "The working folder holds files that run later (such as .git); run the command from the workspace or a folder of your project.") if {
	input.request.action == "run_command"
	input.paths.cwd.sensitivity == "executes"
}

# A program that runs scripts the workspace defines (npm test runs
# package.json's "test" with sh -c; make runs the Makefile; pytest
# conftest.py; go generate its //go:generate lines; cargo build.rs) is a
# shell by another name: input.command.script_runner names its kind, and
# it runs only when data.config.commands.script_runners opens that kind
# (the decision log records the kind in the logged input). git's hooks
# (script_runner "git-hooks") never run: the host sets core.hooksPath to
# the null device.
deny contains denial("script_runner", sprintf("%s runs scripts the workspace defines, which is a shell by another name; a team opens it with commands.script_runners.", [runner])) if {
	input.request.action == "run_command"
	runner := input.command.script_runner
	not runner in {"", "git-hooks"}
	not script_runner_opened
}

script_runner_opened if {
	some r in data.config.commands.script_runners
	r == input.command.script_runner
}

env_denied_names := {
	"PATH", "HOME", "USERPROFILE", "SHELL", "ENV", "BASH_ENV", "CDPATH", "IFS", "PS4",
	"PROMPT_COMMAND", "PAGER", "MANPAGER", "EDITOR", "VISUAL", "BROWSER", "SSH_ASKPASS",
	"CC", "CXX", "FC", "AR", "LD", "PKG_CONFIG", "COMSPEC", "SYSTEMROOT", "WINDIR",
	"PATHEXT", "PSMODULEPATH", "RIPGREP_CONFIG_PATH", "OPENSSL_CONF", "OPENSSL_ENGINES",
	"GCONV_PATH", "GLIBC_TUNABLES", "LOCPATH", "NLSPATH", "HOSTALIASES",
	"ELECTRON_RUN_AS_NODE", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
	"GOFLAGS", "GOENV", "GOTOOLCHAIN", "GOROOT", "GOPATH", "GOBIN", "GOPROXY", "GOSUMDB",
	"GONOSUMDB", "GOPRIVATE", "GONOPROXY", "GOINSECURE", "GOVCS", "GOCACHE", "GOMODCACHE",
	"GOEXPERIMENT", "GODEBUG", "SSH_AUTH_SOCK", "DISPLAY", "WAYLAND_DISPLAY",
	"POSIXLY_CORRECT",
}

env_denied_prefixes := {
	"LD_", "DYLD_", "GIT_", "NODE_", "NPM_CONFIG_", "PYTHON", "PERL", "RUBY", "BASH_FUNC_",
	"LESS", "XDG_", "CGO_", "MALLOC_", "DOTNET_", "COR_", "BUN_", "DENO_", "YARN_",
}

env_denied(n) if upper(n) in env_denied_names

env_denied(n) if {
	some p in env_denied_prefixes
	startswith(upper(n), p)
	upper(n) != "CGO_ENABLED"
}

deny contains denial("env", sprintf("The environment variable %s may change what the program runs; remove it.", [n])) if {
	input.request.action == "run_command"
	some n in input.command.env_names
	env_denied(n)
}

# ---- rules of one program ----------------------------------------------------

# A program's own rules are filed under its name in program_denials: with
# name known, OPA evaluates program_denials[name] by descending to that one
# key of the rule tree, so the rules of other programs never run (an
# equality on name, a rule's value, is not something OPA's index reads).
deny contains d if {
	input.request.action == "run_command"
	some d in program_denials[name]
}

# The interpreters share their rules (the keys of interpreter_rules).
program_denials.python contains d if some d in interpreter_denials

program_denials.python3 contains d if some d in interpreter_denials

program_denials.node contains d if some d in interpreter_denials

program_denials.perl contains d if some d in interpreter_denials

# ---- helpers over arguments ------------------------------------------------

# end_of_options is the index of the first "--" in args, or count(args):
# input.command.options_end as the host computes it (engine/cmdfacts), or,
# for an input without it (logged by an older host, written by hand), the
# same computed here. (An array comprehension lists the indices in order,
# so its first element is the least; cheaper than the minimum of a set.)
end_of_options := n if {
	n := input.command.options_end
} else := array.concat([i | args[i] == "--"], [count(args)])[0]

# first_operand is the index of the first argument that does not begin
# with "-" (git's subcommand), or count(args) when there is none:
# input.command.first_operand, or the same computed here (as end_of_options).
first_operand := n if {
	n := input.command.first_operand
} else := array.concat([i | some i, a in args; not startswith(a, "-")], [count(args)])[0]

# option_args are the arguments before "--". The rules below slice args at
# end_of_options instead, which does not build this set.
# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
option_args contains [i, a] if {
	some i, a in args
	i < end_of_options
}

# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
option_name(a) := split(a, "=")[0]

# option_in holds when a names one of a set of options exactly, with
# "=value", or as a unique-prefix abbreviation of a long option (git and npm
# accept those). names is such a set's *_names: the options and every
# prefix of four or more characters of the long ones, all beginning with
# "-", so one set lookup answers both cases (commands_test.rego checks
# each *_names set against its options). The rules spell it out as
# `split(a, "=")[0] in {…}`, the set written in the rule: a function called
# per argument costs a rule evaluation each time.
# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
option_in(a, names) if option_name(a) in names

short_cluster(a) if {
	startswith(a, "-")
	not startswith(a, "--")
	count(a) > 1
}

cluster_has(a, letters) if {
	short_cluster(a)
	some l in letters
	contains(substring(a, 1, -1), l)
}

info_flags := {"-V", "-VV", "-v", "--version", "-h", "--help"}

# ---- git ---------------------------------------------------------------------

# The rules of git, find, rg, go and npm read input.command.args, not args:
# a rule evaluated costs more than the reference, and an input without args
# gives them nothing to iterate either way.

# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
git_denied_options := {
	"-c", "-C", "--git-dir", "--work-tree", "--exec-path", "--upload-pack",
	"--receive-pack", "--exec", "--config-env", "--output", "--ext-diff", "--textconv",
	"--paginate", "--open-files-in-pager", "--template", "--separate-git-dir",
	"--super-prefix", "--namespace", "--extcmd", "--tool", "--config",
}

# git_denied_options and the abbreviations of its long options (see option_in).
git_denied_names := {
	"--co", "--con", "--conf", "--confi", "--config", "--config-", "--config-e", "--config-en",
	"--config-env", "--ex", "--exe", "--exec", "--exec-", "--exec-p", "--exec-pa", "--exec-pat",
	"--exec-path", "--ext", "--ext-", "--ext-d", "--ext-di", "--ext-dif", "--ext-diff", "--extc",
	"--extcm", "--extcmd", "--gi", "--git", "--git-", "--git-d", "--git-di", "--git-dir", "--na",
	"--nam", "--name", "--names", "--namesp", "--namespa", "--namespac", "--namespace", "--op",
	"--ope", "--open", "--open-", "--open-f", "--open-fi", "--open-fil", "--open-file",
	"--open-files", "--open-files-", "--open-files-i", "--open-files-in", "--open-files-in-",
	"--open-files-in-p", "--open-files-in-pa", "--open-files-in-pag", "--open-files-in-page",
	"--open-files-in-pager", "--ou", "--out", "--outp", "--outpu", "--output", "--pa", "--pag",
	"--pagi", "--pagin", "--pagina", "--paginat", "--paginate", "--re", "--rec", "--rece",
	"--recei", "--receiv", "--receive", "--receive-", "--receive-p", "--receive-pa",
	"--receive-pac", "--receive-pack", "--se", "--sep", "--sepa", "--separ", "--separa",
	"--separat", "--separate", "--separate-", "--separate-g", "--separate-gi", "--separate-git",
	"--separate-git-", "--separate-git-d", "--separate-git-di", "--separate-git-dir", "--su",
	"--sup", "--supe", "--super", "--super-", "--super-p", "--super-pr", "--super-pre",
	"--super-pref", "--super-prefi", "--super-prefix", "--te", "--tem", "--temp", "--templ",
	"--templa", "--templat", "--template", "--tex", "--text", "--textc", "--textco", "--textcon",
	"--textconv", "--to", "--too", "--tool", "--up", "--upl", "--uplo", "--uploa", "--upload",
	"--upload-", "--upload-p", "--upload-pa", "--upload-pac", "--upload-pack", "--wo", "--wor",
	"--work", "--work-", "--work-t", "--work-tr", "--work-tre", "--work-tree", "-C", "-c",
}

git_subcommands := {
	"add", "blame", "branch", "cat-file", "checkout", "cherry-pick", "clean", "commit",
	"describe", "diff", "fetch", "grep", "init", "log", "ls-files", "ls-tree", "merge",
	"merge-base", "mv", "pull", "push", "rebase", "reflog", "reset", "restore", "revert",
	"rev-list", "rev-parse", "rm", "shortlog", "show", "stash", "status", "switch", "tag",
	"version",
}

git_global_options := {
	"--no-pager", "-P", "--version", "--help", "-h", "--no-replace-objects",
	"--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
	"--no-optional-locks", "--bare",
}

program_denials.git contains denial("git_option", sprintf("The git option %s can run other programs or leave the workspace; remove it.", [a])) if {
	some a in array.slice(input.command.args, 0, end_of_options) # option_args
	split(a, "=")[0] in git_denied_names
}

program_denials.git contains denial("git_global_option", sprintf("The git option %s is not allowed before the subcommand.", [a])) if {
	some a in array.slice(input.command.args, 0, first_operand)
	not a in git_global_options
}

program_denials.git contains denial("git_subcommand", sprintf("git %s is not allowed; use a common subcommand such as status, log or diff.", [sub])) if {
	sub := input.command.args[first_operand]
	not sub in git_subcommands
}

git_sub_denied := {
	"grep": {"-O"},
	"clone": {"-u"},
	"fetch": {"-u"},
	"pull": {"-u"},
	"rebase": {"-x", "-i", "--interactive"},
	"log": {"--full-diff"},
	"show": {"--full-diff"},
	"diff": {"--no-index", "--full-diff"},
	"stash": {"-p", "--patch", "-U", "--unified", "--word-diff", "--color-words", "-W", "--function-context", "--cc"},
	"cat-file": {"--batch", "--textconv", "--filters"},
	"add": {"-p", "--patch", "-i", "--interactive", "-e", "--edit"},
	"checkout": {"-p", "--patch"},
	"reset": {"-p", "--patch"},
	"restore": {"-p", "--patch"},
	"commit": {"-p", "--patch", "--interactive"},
	"tag": {"--format"},
	"branch": {"--format"},
	"status": {"-v", "--verbose"},
}

# git_sub_denied also holds the options by which a reader of many paths
# would print a secret despite the exclusions the host appends
# (--full-diff, diff --no-index, a stash's patch, cat-file's batches and
# filters, %(raw) in a ref format, status -v, whose diff ignores
# pathspecs) and the interactive patch modes, which print hunks of any
# file.
program_denials.git contains denial("git_option", sprintf("The option %s of git %s can run other programs or print files DeskBridge keeps secret; remove it.", [a, sub])) if {
	sub := input.command.args[first_operand]
	some o in object.get(git_sub_denied, sub, set())
	some a in array.slice(input.command.args, first_operand + 1, end_of_options)
	startswith(a, o)
}

# git cat-file prints an object's content (-p, or a type name) only for an
# object named with its path (`HEAD:README.md`), whose path the path rules
# judge: an object id or a ref may name the blob of a secret.
program_denials.git contains denial("git_object_id", sprintf("git cat-file shows content only of an object named with its path (rev:path), so that its path can be checked; %s names none.", [a])) if {
	input.command.args[first_operand] == "cat-file"
	some c in array.slice(input.command.args, first_operand + 1, end_of_options)
	c in {"-p", "blob", "tree", "commit", "tag"}
	some a in array.slice(input.command.args, first_operand + 1, end_of_options)
	not startswith(a, "-")
	not a in {"blob", "tree", "commit", "tag"}
	not contains(a, ":")
}

# git show and git diff print a blob named by its id or by a ref whole,
# whatever pathspec follows, so the blob's path cannot be judged: each
# revision they are given must name a commit or a tree (the host resolves
# it, input.command.git_objects); a file is named as rev:path instead.
program_denials.git contains denial("git_blob", sprintf("git %s prints a file named only by an object id or a ref, whose path DeskBridge cannot check; %s names %s. Name the file as rev:path (HEAD:README.md) instead.", [input.command.args[first_operand], o.arg, git_object_kind[o.type]])) if {
	some o in input.command.git_objects
	o.type in {"blob", "unknown"}
}

git_object_kind := {"blob": "a file's content (a blob)", "unknown": "nothing DeskBridge can resolve"}

# A ref given after --end-of-options that begins with "-" is refused: git
# would take it for a ref, a reader for an option.
program_denials.git contains denial("git_dash_ref", "A git ref must not begin with '-'.") if {
	some j, e in input.command.args
	e == "--end-of-options"
	some a in array.slice(input.command.args, j + 1, end_of_options)
	startswith(a, "-")
}

# ---- find ----------------------------------------------------------------------

find_denied := {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"}

program_denials.find contains denial("find_action", sprintf("The find action %s runs programs or writes files; remove it.", [a])) if {
	some a in input.command.args
	a in find_denied
}

# ---- rg ------------------------------------------------------------------------

# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
rg_denied := {"--pre", "--hostname-bin", "--search-zip"}

# The two rg_option rules are rg_option_denied(a), written out (a function
# called per argument costs a rule evaluation each time).
program_denials.rg contains denial("rg_option", sprintf("The rg option %s runs other programs; remove it.", [a])) if {
	some a in array.slice(input.command.args, 0, end_of_options) # option_args
	split(a, "=")[0] in rg_denied_names
}

program_denials.rg contains denial("rg_option", sprintf("The rg option %s runs other programs; remove it.", [a])) if {
	some a in array.slice(input.command.args, 0, end_of_options) # option_args
	startswith(a, "-") # cluster_has(a, {"z"})
	not startswith(a, "--")
	contains(substring(a, 1, -1), "z")
}

# rg_denied and the abbreviations of its long options (see option_in).
rg_denied_names := {
	"--ho", "--hos", "--host", "--hostn", "--hostna", "--hostnam", "--hostname", "--hostname-",
	"--hostname-b", "--hostname-bi", "--hostname-bin", "--pr", "--pre", "--se", "--sea", "--sear",
	"--searc", "--search", "--search-", "--search-z", "--search-zi", "--search-zip",
}

# METADATA
# scope: document
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
rg_option_denied(a) if option_in(a, rg_denied_names)

rg_option_denied(a) if cluster_has(a, {"z"})

# ---- interpreters ----------------------------------------------------------------

# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
interpreter_rules := {
	"python": {"letters": {"c", "i"}, "long": set(), "values": {"-W", "-X"}},
	"python3": {"letters": {"c", "i"}, "long": set(), "values": {"-W", "-X"}},
	"node": {
		"letters": {"e", "p", "i", "r"},
		"long": {
			"--eval", "--print", "--interactive", "--require", "--import", "--loader",
			"--experimental-loader", "--inspect", "--inspect-brk", "--inspect-wait",
			"--input-type",
		},
		"values": {"-C", "--title"},
	},
	"perl": {"letters": {"e", "E", "M", "m", "d", "x"}, "long": set(), "values": set()},
}

# interp is interpreter_rules[name], from the table spelled out (a local's
# value costs less than a rule's; a test holds the two equal).
interp := rules[name] if {
	rules := {
		"python": {"letters": {"c", "i"}, "long": set(), "values": {"-W", "-X"}},
		"python3": {"letters": {"c", "i"}, "long": set(), "values": {"-W", "-X"}},
		"node": {
			"letters": {"e", "p", "i", "r"},
			"long": {
				"--eval", "--print", "--interactive", "--require", "--import", "--loader",
				"--experimental-loader", "--inspect", "--inspect-brk", "--inspect-wait",
				"--input-type",
			},
			"values": {"-C", "--title"},
		},
		"perl": {"letters": {"e", "E", "M", "m", "d", "x"}, "long": set(), "values": set()},
	}
}

# script_index is the index of the script argument: the first operand that
# is not the value of an option, or count(args) when there is none. Most
# often that is the first operand, which needs no search.
script_index := first_operand if {
	not interp_value(first_operand)
} else := array.concat(
	[i |
		some i, a in args
		not startswith(a, "-")
		not interp_value(i)
	],
	[count(args)],
)[0]

interp_value(i) if {
	i > 0
	args[i - 1] in interp.values
}

interpreter_denials contains denial("inline_code", sprintf("%s may not run code given on the command line or on stdin; run a script file from the workspace.", [name])) if {
	name in {"python", "python3", "node", "perl"} # the keys of interpreter_rules, which this spares building
	interp
	some i, a in args
	i < script_index
	interp_inline(a)
}

interp_inline(a) if cluster_has(a, interp.letters)

interp_inline("-")

interp_inline(a) if {
	some o in interp.long
	startswith(a, o)
}

interpreter_denials contains denial("inline_code", sprintf("%s without a script reads code from stdin; run a script file from the workspace.", [name])) if {
	name in {"python", "python3", "node", "perl"} # the keys of interpreter_rules, which this spares building
	interp
	script_index == count(args)
	not only_info(args)
	not has_module(args)
}

only_info(a) if {
	count(a) > 0
	every x in a {
		x in info_flags
	}
}

has_module(a) if {
	name in {"python", "python3"}
	some x in a
	cluster_has(x, {"m"})
}

# ---- go and npm --------------------------------------------------------------

program_denials.go contains denial("go_option", sprintf("The go option %s runs other programs; remove it.", [a])) if {
	some a in array.slice(input.command.args, 0, end_of_options) # option_args
	split(a, "=")[0] in {"-toolexec", "--toolexec", "-exec", "--exec"} # option_name(a)
}

program_denials.go contains denial("go_env_write", "go env -w/-u changes the user's Go configuration; set it in the workspace instead.") if {
	input.command.args[0] == "env"
	some a in input.command.args
	split(a, "=")[0] in {"-w", "-u", "--w", "--u"} # option_name(a)
}

npm_denied_subcommands := {"exec", "x", "explore", "set", "config", "c", "edit"}

program_denials.npm contains denial("npm_subcommand", sprintf("npm %s runs arbitrary programs or changes the user's npm configuration.", [a])) if {
	some a in input.command.args
	a in npm_denied_subcommands
}

# METADATA
# description: kept for readers and tests; the rules spell it out
# custom:
#   deskbridge:
#     unused: true
npm_denied_options := {"--script-shell", "--node-options", "--userconfig", "--globalconfig", "--call", "-c"}

program_denials.npm contains denial("npm_option", sprintf("The npm option %s runs other programs or reads another configuration.", [a])) if {
	some a in array.slice(input.command.args, 0, end_of_options) # option_args
	split(a, "=")[0] in npm_denied_names
}

# npm_denied_options and the abbreviations of its long options (see option_in).
npm_denied_names := {
	"--ca", "--cal", "--call", "--gl", "--glo", "--glob", "--globa", "--global", "--globalc",
	"--globalco", "--globalcon", "--globalconf", "--globalconfi", "--globalconfig", "--no",
	"--nod", "--node", "--node-", "--node-o", "--node-op", "--node-opt", "--node-opti",
	"--node-optio", "--node-option", "--node-options", "--sc", "--scr", "--scri", "--scrip",
	"--script", "--script-", "--script-s", "--script-sh", "--script-she", "--script-shel",
	"--script-shell", "--us", "--use", "--user", "--userc", "--userco", "--usercon", "--userconf",
	"--userconfi", "--userconfig", "-c",
}
