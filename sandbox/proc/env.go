package proc

import (
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// kept are the host's variables a child inherits; nothing else is.
var kept = []string{
	"HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TMP", "TEMP",
	"USERPROFILE", "APPDATA", "LOCALAPPDATA", "SYSTEMROOT", "SYSTEMDRIVE", "WINDIR",
	"PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "NUMBER_OF_PROCESSORS",
	"PROCESSOR_ARCHITECTURE", "PATHEXT",
}

// deniedNames and deniedPrefixes are variables a request may not set: each
// can make a program load or run code the policy never saw. The Rego
// command policy refuses the same names.
var deniedNames = map[string]bool{
	"PATH": true, "HOME": true, "USERPROFILE": true, "SHELL": true, "ENV": true,
	"BASH_ENV": true, "CDPATH": true, "IFS": true, "PS4": true, "PROMPT_COMMAND": true,
	"PAGER": true, "MANPAGER": true, "EDITOR": true, "VISUAL": true, "BROWSER": true,
	"SSH_ASKPASS": true, "CC": true, "CXX": true, "FC": true, "AR": true, "LD": true,
	"PKG_CONFIG": true, "COMSPEC": true, "SYSTEMROOT": true, "WINDIR": true,
	"PATHEXT": true, "PSMODULEPATH": true, "RIPGREP_CONFIG_PATH": true,
	"OPENSSL_CONF": true, "OPENSSL_ENGINES": true, "GCONV_PATH": true,
	"GLIBC_TUNABLES": true, "LOCPATH": true, "NLSPATH": true, "HOSTALIASES": true,
	"ELECTRON_RUN_AS_NODE": true, "JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true,
	"JDK_JAVA_OPTIONS": true, "GOFLAGS": true, "GOENV": true, "GOTOOLCHAIN": true,
	"GOROOT": true, "GOPATH": true, "GOBIN": true, "GOPROXY": true, "GOSUMDB": true,
	"GONOSUMDB": true, "GOPRIVATE": true, "GONOPROXY": true, "GOINSECURE": true,
	"GOVCS": true, "GOCACHE": true, "GOMODCACHE": true, "GOEXPERIMENT": true,
	"GODEBUG": true, "SSH_AUTH_SOCK": true, "DISPLAY": true, "WAYLAND_DISPLAY": true,
}

var deniedPrefixes = []string{
	"LD_", "DYLD_", "GIT_", "NODE_", "NPM_CONFIG_", "PYTHON", "PERL", "RUBY", "BASH_FUNC_",
	"LESS", "XDG_", "CGO_", "MALLOC_", "DOTNET_", "COR_", "BUN_", "DENO_", "YARN_",
}

// Denied reports whether a request may not set the variable name (compared
// without case, as Windows does).
func Denied(name string) bool {
	n := strings.ToUpper(name)
	if deniedNames[n] || strings.ContainsAny(n, "=\x00") || n == "" {
		return true
	}
	for _, p := range deniedPrefixes {
		if strings.HasPrefix(n, p) && n != "CGO_ENABLED" {
			return true
		}
	}
	return false
}

// SafeEnv returns the environment of a child: the host's harmless variables
// (locale, home, temporary folder), PATH set to the fixed system folders,
// the git safety variables of GitEnv, a pager and editor that do nothing,
// and the requested variables that Denied lets through.
func SafeEnv(requested map[string]string) []string {
	env := hostVars()
	for k, v := range requested {
		if !Denied(k) && !strings.ContainsRune(v, 0) {
			env[k] = v
		}
	}
	for _, kv := range fixedEnv() {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return flatten(env)
}

// hostVars returns the host's variables named in kept, and its LC_* locale.
func hostVars() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if slices.Contains(kept, strings.ToUpper(k)) || strings.HasPrefix(k, "LC_") {
			env[k] = v
		}
	}
	return env
}

func fixedEnv() []string {
	env := []string{
		"PATH=" + systemPath(),
		"PAGER=cat", "TERM=dumb", "NO_COLOR=1",
		"EDITOR=:", "VISUAL=:",
	}
	return append(env, GitEnv()...)
}

func flatten(env map[string]string) []string {
	out := make([]string, 0, len(env))
	for k, v := range env {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// gitOverrides are configuration values given to git through
// GIT_CONFIG_COUNT: they rank above every configuration file, so a hostile
// .git/config in the workspace cannot name a program for git to run.
func gitOverrides() [][2]string {
	return [][2]string{
		{"core.fsmonitor", "false"},
		{"core.hooksPath", nullDevice},
		{"core.pager", "cat"},
		{"core.editor", ":"},
		{"sequence.editor", ":"},
		{"core.askPass", ""},
		{"core.sshCommand", "false"},
		{"core.gitProxy", "false"},
		{"core.alternateRefsCommand", ""},
		{"diff.external", ""},
		{"credential.helper", ""},
		{"gpg.program", "false"},
		{"gpg.ssh.program", "false"},
		{"gpg.x509.program", "false"},
		{"gpg.ssh.defaultKeyCommand", "false"},
		{"commit.gpgSign", "false"},
		{"tag.gpgSign", "false"},
		{"push.gpgSign", "false"},
		{"protocol.allow", "never"},
		{"protocol.file.allow", "never"},
		{"protocol.git.allow", "never"},
		{"protocol.ssh.allow", "never"},
		{"protocol.http.allow", "never"},
		{"protocol.https.allow", "never"},
		{"protocol.ext.allow", "never"},
		{"submodule.recurse", "false"},
		{"fetch.recurseSubmodules", "false"},
		{"uploadpack.packObjectsHook", ""},
		{"status.showUntrackedFiles", "normal"},
		{"interactive.diffFilter", "cat"},
		{"safe.bareRepository", "explicit"},
	}
}

// GitEnv returns the variables that make git ignore the system
// configuration, never page, never prompt, never open an editor, and take
// the overrides above.
func GitEnv() []string {
	ov := gitOverrides()
	env := []string{
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0",
		"GIT_PAGER=cat",
		"GIT_EDITOR=:",
		"GIT_SEQUENCE_EDITOR=:",
		"GIT_OPTIONAL_LOCKS=0",
		"GIT_ATTR_NOSYSTEM=1",
		"GIT_CONFIG_COUNT=" + strconv.Itoa(len(ov)),
	}
	for i, kv := range ov {
		n := strconv.Itoa(i)
		env = append(env, "GIT_CONFIG_KEY_"+n+"="+kv[0], "GIT_CONFIG_VALUE_"+n+"="+kv[1])
	}
	return env
}
