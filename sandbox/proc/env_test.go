package proc

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestSafeEnv(t *testing.T) {
	t.Setenv("LD_PRELOAD", "/tmp/evil.so")
	t.Setenv("NODE_OPTIONS", "--require /tmp/evil.js")
	env := SafeEnv(map[string]string{
		"LD_PRELOAD": "x", "DYLD_INSERT_LIBRARIES": "x", "GIT_DIR": "x", "PYTHONSTARTUP": "x",
		"BASH_ENV": "x", "PAGER": "x", "EDITOR": "x", "Path": "x", "npm_config_script_shell": "x",
		"CI": "1",
	})
	get := func(k string) (string, bool) {
		for _, kv := range env {
			if name, v, _ := strings.Cut(kv, "="); name == k {
				return v, true
			}
		}
		return "", false
	}
	for _, k := range []string{"LD_PRELOAD", "DYLD_INSERT_LIBRARIES", "GIT_DIR", "PYTHONSTARTUP", "BASH_ENV", "NODE_OPTIONS", "Path", "npm_config_script_shell"} {
		if _, ok := get(k); ok {
			t.Errorf("%s reached the child", k)
		}
	}
	for k, want := range map[string]string{"CI": "1", "PATH": systemPath(), "PAGER": "cat", "EDITOR": ":", "GIT_CONFIG_NOSYSTEM": "1"} {
		if v, _ := get(k); v != want {
			t.Errorf("%s = %q, want %q", k, v, want)
		}
	}
	if !slices.IsSorted(env) {
		t.Error("SafeEnv is not sorted")
	}
}

func TestGitEnvCount(t *testing.T) {
	env := GitEnv()
	n := 0
	for _, kv := range env {
		if strings.HasPrefix(kv, "GIT_CONFIG_KEY_") {
			n++
		}
	}
	if !slices.Contains(env, "GIT_CONFIG_COUNT="+strconv.Itoa(n)) || n == 0 {
		t.Fatalf("GIT_CONFIG_COUNT does not match %d keys", n)
	}
}
