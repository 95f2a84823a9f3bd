package deskbridge.policies.commands_test

import data.deskbridge.policies.builtin as commands

# Over the cli channel, so that the origins rule has nothing to say.
run_input(argv) := {
	"request": {"action": "run_command", "channel": "cli"},
	"command": {
		"argv": argv,
		"program": argv[0],
		"program_name": argv[0],
		"resolved": concat("/", ["/usr/bin", argv[0]]),
		"args": array.slice(argv, 1, count(argv)),
		"path_args": [],
		"env_names": [],
		"has_stdin": false,
	},
	"paths": {"cwd": {"inside": true}},
}

rules_for(inp) := r if {
	r := {d.rule | some d in commands.deny} with input as inp
}

rules(argv) := rules_for(run_input(argv))

refused(argv, rule) if rule in rules(argv)

allowed(argv) if count(rules(argv)) == 0

# ---- program ----

test_unknown_program_refused if refused(["curl", "http://x"], "commands.not_allowed")

test_known_program_allowed if allowed(["ls", "-la"])

test_config_extends_list if {
	r := rules(["make", "all"]) with data.config.commands.allow as ["make"]
	count(r) == 0
}

test_unresolved_refused if {
	inp := json.patch(run_input(["git", "status"]), [{"op": "replace", "path": "/command/resolved", "value": ""}])
	"commands.not_resolved" in rules_for(inp)
}

test_wrappers_refused if {
	every w in ["env", "xargs", "nice", "timeout", "nohup", "busybox", "npx"] {
		r := rules([w, "ls"]) with data.config.commands.allow as [w]
		"commands.wrapper" in r
	}
}

# The wrapper and shell rules spell the sets out; each member of the named
# sets must reach its rule.
test_every_wrapper_and_shell_refused if {
	every w in commands.wrappers {
		"commands.wrapper" in rules([w, "ls"]) with data.config.commands.allow as [w]
	}
	every sh in commands.shells {
		"commands.shell" in rules([sh, "-c", "id"]) with data.config.commands.allow as [sh]
	}
}

test_shell_refused if {
	r := rules(["bash", "-c", "id"]) with data.config.commands.allow as ["bash"]
	"commands.shell" in r
}

test_batch_file_refused if {
	r := rules(["build.bat"]) with data.config.commands.allow as ["build.bat"]
	"commands.batch_file" in r
}

test_other_actions_ignored if {
	inp := json.patch(run_input(["curl"]), [{"op": "replace", "path": "/request/action", "value": "read_file"}])
	count(rules_for(inp)) == 0
}

# ---- working folder, paths, environment ----

test_cwd_outside_refused if {
	inp := json.patch(run_input(["ls"]), [{"op": "replace", "path": "/paths/cwd/inside", "value": false}])
	"commands.cwd_outside" in rules_for(inp)
}

test_path_outside_refused if {
	inp := json.patch(run_input(["cat", "/etc/passwd"]), [{"op": "replace", "path": "/command/path_args", "value": [{"index": 1, "value": "/etc/passwd", "canonical": "/etc/passwd", "inside": false, "workspace": ""}]}])
	"commands.path_outside" in rules_for(inp)
}

test_path_inside_allowed if {
	inp := json.patch(run_input(["cat", "a.txt"]), [{"op": "replace", "path": "/command/path_args", "value": [{"index": 1, "value": "a.txt", "canonical": "/w/a.txt", "inside": true, "workspace": "W"}]}])
	count(rules_for(inp)) == 0
}

test_path_secret_refused if {
	inp := json.patch(run_input(["cat", ".env"]), [{"op": "replace", "path": "/command/path_args", "value": [{"index": 1, "value": ".env", "canonical": "/w/.env", "inside": true, "workspace": "W", "sensitivity": "secret"}]}])
	"commands.path_secret" in rules_for(inp)
}

test_path_executes_named_allowed if {
	# reading a file that runs later is not writing it
	inp := json.patch(run_input(["cat", ".vscode/tasks.json"]), [{"op": "replace", "path": "/command/path_args", "value": [{"index": 1, "value": ".vscode/tasks.json", "canonical": "/w/.vscode/tasks.json", "inside": true, "workspace": "W", "sensitivity": "executes"}]}])
	count(rules_for(inp)) == 0
}

test_path_write_executes_refused if {
	inp := json.patch(run_input(["sort", "--output=pre-commit", "x"]), [{"op": "replace", "path": "/command/path_args", "value": [{"index": 1, "value": "pre-commit", "canonical": "/w/.git/hooks/pre-commit", "inside": true, "workspace": "W", "sensitivity": "executes", "write": true}]}])
	"commands.path_write" in rules_for(inp)
}

test_path_write_plain_allowed if {
	inp := json.patch(run_input(["sort", "--output=out.txt", "x"]), [{"op": "replace", "path": "/command/path_args", "value": [{"index": 1, "value": "out.txt", "canonical": "/w/out.txt", "inside": true, "workspace": "W", "sensitivity": "", "write": true}]}])
	count(rules_for(inp)) == 0
}

test_cwd_in_git_refused if {
	inp := json.patch(run_input(["ls"]), [{"op": "replace", "path": "/paths/cwd", "value": {"inside": true, "sensitivity": "executes"}}])
	"commands.cwd_sensitive" in rules_for(inp)
}

test_cwd_plain_allowed if {
	inp := json.patch(run_input(["ls"]), [{"op": "replace", "path": "/paths/cwd", "value": {"inside": true, "sensitivity": "", "protected": false}}])
	count(rules_for(inp)) == 0
}

env_input(names) := json.patch(run_input(["ls"]), [{"op": "replace", "path": "/command/env_names", "value": names}])

test_dangerous_env_refused if {
	every n in ["LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "GIT_CONFIG_COUNT", "NODE_OPTIONS", "PYTHONSTARTUP", "BASH_ENV", "PAGER", "EDITOR", "PATH", "Path", "npm_config_script_shell", "GOFLAGS"] {
		"commands.env" in rules_for(env_input([n]))
	}
}

test_plain_env_allowed if count(rules_for(env_input(["CI", "NO_COLOR", "GOOS", "CGO_ENABLED"]))) == 0

# ---- git ----

test_git_options_refused if {
	every argv in [
		["git", "-c", "core.pager=sh", "log"],
		["git", "-C", "/etc", "status"],
		["git", "--git-dir=/tmp/x", "status"],
		["git", "--work-tree", "/", "status"],
		["git", "--exec-path=/tmp", "status"],
		["git", "fetch", "--upload-pack=touch x", "origin"],
		["git", "--config-env=core.pager=X", "log"],
		["git", "diff", "--output=/tmp/x"],
		["git", "diff", "--outp=/tmp/x"],
		["git", "diff", "--ext-diff"],
		["git", "log", "--textconv"],
		["git", "--paginate", "log"],
		["git", "clone", "--template=t", "a", "b"],
	] {
		"commands.git_option" in rules(argv)
	}
}

test_git_global_paginate_refused if refused(["git", "-p", "log"], "commands.git_global_option")

test_git_grep_pager_refused if refused(["git", "grep", "-Ovim", "x"], "commands.git_option")

test_git_rebase_exec_refused if refused(["git", "rebase", "-x", "make", "main"], "commands.git_option")

test_git_dash_ref_refused if refused(["git", "log", "--end-of-options", "-x"], "commands.git_dash_ref")

test_git_alias_refused if refused(["git", "st"], "commands.git_subcommand")

test_git_submodule_refused if refused(["git", "submodule", "update"], "commands.git_subcommand")

test_git_allowed if {
	every argv in [
		["git", "status", "--short"],
		["git", "log", "-p", "--oneline", "-n", "3"],
		["git", "--no-pager", "diff", "--no-ext-diff", "--", "-c"],
		["git", "--version"],
		["git", "cherry-pick", "-x", "abc"],
		["git", "log", "--end-of-options", "main"],
	] {
		allowed(argv)
	}
}

# ---- find ----

test_find_actions_refused if {
	every a in commands.find_denied {
		"commands.find_action" in rules(["find", ".", a, "x"])
	}
}

test_find_allowed if allowed(["find", ".", "-name", "*.go", "-executable", "-print"])

# ---- rg ----

test_rg_options_refused if {
	every argv in [
		["rg", "--pre", "sh", "x"],
		["rg", "--pre=sh", "x"],
		["rg", "--hostname-bin=/bin/sh", "x"],
		["rg", "-z", "x"],
		["rg", "-iz", "x"],
		["rg", "--search-zip", "x"],
	] {
		"commands.rg_option" in rules(argv)
	}
}

test_rg_allowed if allowed(["rg", "-i", "-n", "x", "--", "-z"])

# ---- interpreters ----

test_inline_code_refused if {
	every argv in [
		["python", "-c", "print(1)"],
		["python3", "-Bc", "print(1)"],
		["python", "-W", "ignore", "-c", "print(1)"],
		["python", "-i", "s.py"],
		["python", "-"],
		["python"],
		["node", "-e", "1"],
		["node", "--eval=1"],
		["node", "-pe", "1"],
		["node", "--require", "./x", "a.js"],
		["node", "--inspect=0.0.0.0:9229", "a.js"],
		["node"],
	] {
		"commands.inline_code" in rules(argv)
	}
}

test_perl_inline_refused if {
	every argv in [["perl", "-e", "1"], ["perl", "-ne", "1"], ["perl", "-MPOSIX", "x.pl"]] {
		r := rules(argv) with data.config.commands.allow as ["perl"]
		"commands.inline_code" in r
	}
}

test_interpreter_scripts_allowed if {
	every argv in [
		["python", "s.py", "-c", "x"],
		["python3", "-u", "s.py"],
		["python", "--version"],
		["python", "-m", "pytest", "-c", "x"],
		["node", "app.js", "-e"],
		["node", "--version"],
	] {
		allowed(argv)
	}
}

# ---- go and npm ----

test_go_refused if {
	refused(["go", "test", "-toolexec=sh", "./..."], "commands.go_option")
	refused(["go", "test", "-exec", "sh", "./..."], "commands.go_option")
	refused(["go", "env", "-w", "GOFLAGS=-toolexec=x"], "commands.go_env_write")
}

test_go_allowed if allowed(["go", "test", "-run", "X", "./..."])

test_npm_refused if {
	refused(["npm", "exec", "cowsay"], "commands.npm_subcommand")
	refused(["npm", "x", "cowsay"], "commands.npm_subcommand")
	refused(["npm", "test", "--script-shell=/bin/sh"], "commands.npm_option")
	refused(["npm", "config", "set", "script-shell", "x"], "commands.npm_subcommand")
}

test_npm_allowed if allowed(["npm", "test"])

# Every prefix of four or more characters of the long options in opts:
# with the options themselves, what option_in's *_names sets must hold.
abbrevs_of(opts) := {substring(o, 0, k) |
	some o in opts
	startswith(o, "--")
	some k in numbers.range(4, count(o))
}

test_names_match_their_options if {
	commands.git_denied_names == commands.git_denied_options | abbrevs_of(commands.git_denied_options)
	commands.rg_denied_names == commands.rg_denied | abbrevs_of(commands.rg_denied)
	commands.npm_denied_names == commands.npm_denied_options | abbrevs_of(commands.npm_denied_options)
}

# option_in answers with one lookup because every name begins with "-".
test_names_are_options if {
	every n in commands.git_denied_names | commands.rg_denied_names | commands.npm_denied_names {
		startswith(n, "-")
	}
}

test_interpreters_are_guarded if {
	{k | some k, _ in commands.interpreter_rules} == {"python", "python3", "node", "perl"}
}

# ---- named sets ----

# Each member of default_programs, git_denied_names, git_global_options,
# git_subcommands and git_sub_denied must reach its rule.
test_every_default_program_allowed if {
	every p in commands.default_programs {
		not "commands.not_allowed" in rules([p, "--version"])
	}
}

test_every_git_denied_name_refused if {
	every n in commands.git_denied_names {
		"commands.git_option" in rules(["git", "log", n])
		"commands.git_option" in rules(["git", "log", concat("=", [n, "x"])])
	}
}

test_every_git_global_option_allowed if {
	every o in commands.git_global_options {
		not "commands.git_global_option" in rules(["git", o, "status"])
	}
	"commands.git_global_option" in rules(["git", "--no-such", "status"])
}

test_every_git_subcommand_allowed if {
	every sub in commands.git_subcommands {
		not "commands.git_subcommand" in rules(["git", sub])
	}
}

test_every_git_sub_denied_option_refused if {
	every sub, opts in commands.git_sub_denied {
		every o in opts {
			some d in commands.deny with input as run_input(["git", sub, concat("", [o, "x"])])
			d.message == sprintf("The option %s of git %s can run other programs or print files DeskBridge keeps secret; remove it.", [concat("", [o, "x"]), sub])
		}
	}
}

# ---- the host's argument facts ----

# with_arg_facts is run_input(argv) with input.command.options_end and
# first_operand as engine/cmdfacts computes them.
with_arg_facts(argv) := inp if {
	args := array.slice(argv, 1, count(argv))
	options_end := array.concat([i | some i, a in args; a == "--"], [count(args)])[0]
	first_operand := array.concat([i | some i, a in args; not startswith(a, "-")], [count(args)])[0]
	inp := json.patch(run_input(argv), [
		{"op": "add", "path": "/command/options_end", "value": options_end},
		{"op": "add", "path": "/command/first_operand", "value": first_operand},
	])
}

# A decision with the facts is the decision without them.
test_arg_facts_decide_as_without if {
	every argv in [
		["git", "log", "--oneline", "--", "src/main.go"],
		["git", "-c", "core.pager=sh", "log"],
		["git", "--no-pager", "diff", "--no-ext-diff", "--", "-c"],
		["git", "-p", "log"],
		["git", "--bare", "--", "log"],
		["git", "rebase", "-x", "make", "main"],
		["git", "rebase", "--", "-x"],
		["git", "log", "--end-of-options", "-x"],
		["git", "log", "--end-of-options", "--", "-x"],
		["git", "--version"],
		["git"],
		["git", "st"],
		["rg", "-i", "-n", "x", "--", "-z"],
		["npm", "test", "--script-shell=/bin/sh"],
		["go", "test", "--", "-toolexec=sh"],
	] {
		rules(argv) == rules_for(with_arg_facts(argv))
	}
}

# The rules read the facts when the input has them.
test_arg_facts_read if {
	inp := json.patch(run_input(["git", "log", "-c", "x"]), [
		{"op": "add", "path": "/command/options_end", "value": 1},
		{"op": "add", "path": "/command/first_operand", "value": 0},
	])
	not "commands.git_option" in rules_for(inp)
	"commands.git_option" in rules(["git", "log", "-c", "x"])
}

# An input without input.command names no allowed program.
test_missing_command_refused if {
	"commands.not_allowed" in rules_for({"request": {"action": "run_command"}, "paths": {"cwd": {"inside": true}}})
}

# The rg, go and npm rules spell out option_in, rg_option_denied and
# their sets; each must decide as the helper over the named set.
option_probes := {
	"-z", "-iz", "-zi", "--z", "-", "-i", "z", "x=z", "--pre", "--pre=sh", "--pr", "--p", "--search",
	"--hostname", "-c", "-c=x", "--call", "--ca", "--c", "--script-shell=sh", "--userc", "--us",
	"-toolexec", "--toolexec=x", "-exec", "-execx", "--exec=1", "-w", "-u", "--w", "--u", "-wx", "",
}

test_rg_rules_are_rg_option_denied if {
	every a in option_probes | commands.rg_denied_names {
		rg_refused := "commands.rg_option" in rules(["rg", a, "x"])
		rg_refused == rg_helper_refuses(a)
	}
}

test_npm_rules_are_option_in if {
	every a in option_probes | commands.npm_denied_names {
		npm_refused := "commands.npm_option" in rules(["npm", "test", a])
		npm_refused == npm_helper_refuses(a)
	}
	every sub in commands.npm_denied_subcommands {
		"commands.npm_subcommand" in rules(["npm", sub])
	}
}

test_go_rules_are_option_name if {
	every a in option_probes {
		go_refused := "commands.go_option" in rules(["go", "test", a])
		go_named := commands.option_name(a) in {"-toolexec", "--toolexec", "-exec", "--exec"}
		go_refused == go_named
		env_refused := "commands.go_env_write" in rules(["go", "env", a])
		env_named := commands.option_name(a) in {"-w", "-u", "--w", "--u"}
		env_refused == env_named
	}
}

rg_helper_refuses(a) := true if {
	commands.rg_option_denied(a)
} else := false

npm_helper_refuses(a) := true if {
	commands.option_in(a, commands.npm_denied_names)
} else := false

# interp spells interpreter_rules out.
test_interp_is_interpreter_rules if {
	every n, r in commands.interpreter_rules {
		commands.interp == r with input as run_input([n, "s"])
	}
	not commands.interp with input as run_input(["git", "s"])
}

# ---- git: secrets through the object store ----

test_git_full_diff_refused if refused(["git", "log", "-p", "--full-diff"], "commands.git_option")

test_git_diff_no_index_refused if refused(["git", "diff", "--no-index", "a", "b"], "commands.git_option")

test_git_stash_patch_refused if refused(["git", "stash", "show", "-p"], "commands.git_option")

test_git_stash_stat_allowed if allowed(["git", "stash", "show", "--stat"])

test_git_add_patch_refused if refused(["git", "add", "-p"], "commands.git_option")

test_git_tag_format_refused if refused(["git", "tag", "--format=%(raw)"], "commands.git_option")

test_git_cat_file_batch_refused if refused(["git", "cat-file", "--batch-all-objects", "--batch"], "commands.git_option")

test_git_cat_file_object_id_refused if refused(["git", "cat-file", "-p", "0123abcd"], "commands.git_object_id")

test_git_cat_file_type_object_id_refused if refused(["git", "cat-file", "blob", "v1"], "commands.git_object_id")

test_git_cat_file_rev_path_allowed if allowed(["git", "cat-file", "-p", "HEAD:README.md"])

test_git_cat_file_type_allowed if allowed(["git", "cat-file", "-t", "HEAD"])

# ---- script runners ----

runner_input(argv, kind) := json.patch(run_input(argv), [{"op": "add", "path": "/command/script_runner", "value": kind}])

test_script_runner_refused if {
	"commands.script_runner" in rules_for(runner_input(["npm", "test"], "npm"))
}

test_script_runner_opened if {
	r := rules_for(runner_input(["npm", "test"], "npm")) with data.config.commands.script_runners as ["npm"]
	count(r) == 0
}

test_script_runner_other_kind_still_refused if {
	r := rules_for(runner_input(["go", "generate"], "go generate")) with data.config.commands.script_runners as ["npm"]
	"commands.script_runner" in r
}

test_git_hooks_allowed if count(rules_for(runner_input(["git", "commit", "-m", "x"], "git-hooks"))) == 0

test_no_runner_allowed if count(rules_for(runner_input(["npm", "ls"], ""))) == 0

# ---- git objects ----

git_objects_input(argv, objects) := json.patch(run_input(argv), [{"op": "add", "path": "/command/git_objects", "value": objects}])

test_git_show_of_a_blob_refused if {
	"commands.git_blob" in rules_for(git_objects_input(["git", "show", "3f9a1c2"], [{"arg": "3f9a1c2", "type": "blob"}]))
}

test_git_diff_of_an_unresolved_revision_refused if {
	"commands.git_blob" in rules_for(git_objects_input(["git", "diff", "HEAD@{1}"], [{"arg": "HEAD@{1}", "type": "unknown"}]))
}

test_git_show_of_a_commit_allowed if {
	not "commands.git_blob" in rules_for(git_objects_input(["git", "show", "HEAD~1"], [{"arg": "HEAD~1", "type": "commit"}]))
	not "commands.git_blob" in rules_for(git_objects_input(["git", "show", "v1"], []))
}
