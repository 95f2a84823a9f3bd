# Command whitelist for run_command: which programs may run, with which
# arguments, environment names and paths. Facts come from input.command
# (engine/cmdfacts) and input.paths.cwd; data.config.commands.allow extends
# the default programs. Wrappers and shells are refused whatever the
# configuration says, because they would run a program these rules never saw.
package deskbridge.policies.commands

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

denial(rule, message) := {
	"code": "COMMAND_NOT_ALLOWED",
	"rule": concat(".", ["commands", rule]),
	"message": message,
	"priority": 60,
}

cmd := input.command

name := lower(cmd.program_name)

args := object.get(cmd, "args", [])

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
	object.get(cmd, "resolved", "") == ""
}

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
	some suffix in {".bat", ".cmd"}
	endswith(name, suffix)
}

# ---- working folder, path arguments, environment --------------------------

deny contains denial("cwd_outside", "The working folder must be inside a workspace.") if {
	input.request.action == "run_command"
	not input.paths.cwd.inside
}

deny contains denial("path_outside", sprintf("Argument %d names a path outside the workspace; use a path inside it.", [pa.index])) if {
	input.request.action == "run_command"
	some pa in object.get(cmd, "path_args", [])
	not pa.inside
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
	some n in object.get(cmd, "env_names", [])
	env_denied(n)
}

# ---- helpers over arguments ------------------------------------------------

# end_of_options is the index of the first "--" in args, or count(args).
end_of_options := min({i | args[i] == "--"} | {count(args)})

# option_args are the arguments before "--".
option_args contains [i, a] if {
	some i, a in args
	i < end_of_options
}

option_name(a) := split(a, "=")[0]

# option_in holds when a names one of the options opts exactly, with
# "=value", or as a unique-prefix abbreviation of a long option (git and npm
# accept those). The exact case is a set lookup, so it stays cheap.
option_in(a, opts) if {
	startswith(a, "-")
	option_name(a) in opts
}

option_in(a, opts) if {
	startswith(a, "--")
	n := option_name(a)
	count(n) > 3
	some o in opts
	startswith(o, n)
}

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

git_denied_options := {
	"-c", "-C", "--git-dir", "--work-tree", "--exec-path", "--upload-pack",
	"--receive-pack", "--exec", "--config-env", "--output", "--ext-diff", "--textconv",
	"--paginate", "--open-files-in-pager", "--template", "--separate-git-dir",
	"--super-prefix", "--namespace", "--extcmd", "--tool", "--config",
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

# git_sub_index is the index of the subcommand, or count(args) when there is none.
git_sub_index := min({i | some i, a in args; not startswith(a, "-")} | {count(args)})

git_sub := args[git_sub_index]

deny contains denial("git_option", sprintf("The git option %s can run other programs or leave the workspace; remove it.", [a])) if {
	input.request.action == "run_command"
	name == "git"
	some [_, a] in option_args
	option_in(a, git_denied_options)
}

deny contains denial("git_global_option", sprintf("The git option %s is not allowed before the subcommand.", [a])) if {
	input.request.action == "run_command"
	name == "git"
	some i, a in args
	i < git_sub_index
	not a in git_global_options
}

deny contains denial("git_subcommand", sprintf("git %s is not allowed; use a common subcommand such as status, log or diff.", [git_sub])) if {
	input.request.action == "run_command"
	name == "git"
	sub := git_sub
	not sub in git_subcommands
}

git_sub_denied := {
	"grep": {"-O"},
	"clone": {"-u"},
	"fetch": {"-u"},
	"pull": {"-u"},
	"rebase": {"-x", "-i", "--interactive"},
}

deny contains denial("git_option", sprintf("The option %s of git %s can run other programs; remove it.", [a, git_sub])) if {
	input.request.action == "run_command"
	name == "git"
	some o in git_sub_denied[git_sub]
	some [i, a] in option_args
	i > git_sub_index
	startswith(a, o)
}

# A ref given after --end-of-options that begins with "-" is refused: git
# would take it for a ref, a reader for an option.
deny contains denial("git_dash_ref", "A git ref must not begin with '-'.") if {
	input.request.action == "run_command"
	name == "git"
	some j, e in args
	e == "--end-of-options"
	some [i, a] in option_args
	i > j
	startswith(a, "-")
}

# ---- find ----------------------------------------------------------------------

find_denied := {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint", "-fprint0", "-fprintf"}

deny contains denial("find_action", sprintf("The find action %s runs programs or writes files; remove it.", [a])) if {
	input.request.action == "run_command"
	name == "find"
	some a in args
	a in find_denied
}

# ---- rg ------------------------------------------------------------------------

rg_denied := {"--pre", "--hostname-bin", "--search-zip"}

deny contains denial("rg_option", sprintf("The rg option %s runs other programs; remove it.", [a])) if {
	input.request.action == "run_command"
	name == "rg"
	some [_, a] in option_args
	rg_option_denied(a)
}

rg_option_denied(a) if option_in(a, rg_denied)

rg_option_denied(a) if cluster_has(a, {"z"})

# ---- interpreters ----------------------------------------------------------------

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

interp := interpreter_rules[name]

# script_index is the index of the script argument: the first operand that
# is not the value of an option, or count(args) when there is none.
script_index := min({i |
	some i, a in args
	not startswith(a, "-")
	not interp_value(i)
} | {count(args)})

interp_value(i) if {
	i > 0
	args[i - 1] in interp.values
}

deny contains denial("inline_code", sprintf("%s may not run code given on the command line or on stdin; run a script file from the workspace.", [name])) if {
	input.request.action == "run_command"
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

deny contains denial("inline_code", sprintf("%s without a script reads code from stdin; run a script file from the workspace.", [name])) if {
	input.request.action == "run_command"
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

deny contains denial("go_option", sprintf("The go option %s runs other programs; remove it.", [a])) if {
	input.request.action == "run_command"
	name == "go"
	some [_, a] in option_args
	some o in {"-toolexec", "--toolexec", "-exec", "--exec"}
	option_name(a) == o
}

deny contains denial("go_env_write", "go env -w/-u changes the user's Go configuration; set it in the workspace instead.") if {
	input.request.action == "run_command"
	name == "go"
	args[0] == "env"
	some a in args
	option_name(a) in {"-w", "-u", "--w", "--u"}
}

npm_denied_subcommands := {"exec", "x", "explore", "set", "config", "c", "edit"}

deny contains denial("npm_subcommand", sprintf("npm %s runs arbitrary programs or changes the user's npm configuration.", [a])) if {
	input.request.action == "run_command"
	name == "npm"
	some a in args
	a in npm_denied_subcommands
}

npm_denied_options := {"--script-shell", "--node-options", "--userconfig", "--globalconfig", "--call", "-c"}

deny contains denial("npm_option", sprintf("The npm option %s runs other programs or reads another configuration.", [a])) if {
	input.request.action == "run_command"
	name == "npm"
	some [_, a] in option_args
	option_in(a, npm_denied_options)
}
