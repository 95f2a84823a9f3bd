package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// subcommands is every command line deskbridge answers.
var subcommands = [][]string{
	{"call"}, {"policy"}, {"policy", "check"}, {"policy", "test"}, {"policy", "eval"}, {"policy", "input"},
	{"log"}, {"log", "verify"}, {"log", "export"}, {"replay"}, {"fleet"}, {"schema"},
	{"install"}, {"uninstall"}, {"doctor"}, {"panel"}, {"status"}, {"version"}, {"warm-serve"},
}

// TestEveryCommandAnswersHelp: -h, -help and --help print the command's
// usage on stdout and exit 0, whatever else is on the line.
func TestEveryCommandAnswersHelp(t *testing.T) {
	for _, cmd := range append(subcommands, []string{}) {
		for _, h := range []string{"-h", "-help", "--help"} {
			args := append(append([]string{}, cmd...), h)
			out, errOut, code := runBin(t, "", nil, args...)
			if code != 0 || !strings.Contains(out, "usage:") || errOut != "" {
				t.Errorf("deskbridge %s: exit %d\nstdout %q\nstderr %q", strings.Join(args, " "), code, out, errOut)
			}
			if len(cmd) > 0 && !strings.Contains(out, "deskbridge") {
				t.Errorf("deskbridge %s: the usage does not name the command:\n%s", strings.Join(args, " "), out)
			}
		}
	}
	out, _, code := runBin(t, "", nil, "help", "replay")
	if code != 0 || !strings.Contains(out, "--force") {
		t.Errorf("deskbridge help replay: exit %d\n%s", code, out)
	}
}

// TestUnknownFlagsAndCommandsExit2: an unknown flag, an unknown
// subcommand or a stray argument exits 2 with one line on stderr that
// points to --help, and prints nothing on stdout.
func TestUnknownFlagsAndCommandsExit2(t *testing.T) {
	var lines [][]string
	for _, cmd := range subcommands {
		lines = append(lines, append(append([]string{}, cmd...), "--no-such-flag"))
	}
	lines = append(lines, []string{"nosuch"}, []string{"policy", "nosuch"}, []string{"log", "nosuch"},
		[]string{"version", "extra"}, []string{"schema", "extra"}, []string{"fleet", "extra"},
		[]string{"replay", "--log"}, []string{"install", "--firefox-id", "a@example.org"})
	for _, args := range lines {
		out, errOut, code := runBin(t, "", nil, args...)
		if code != 2 || out != "" || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "--help") {
			t.Errorf("deskbridge %s: exit %d\nstdout %q\nstderr %q", strings.Join(args, " "), code, out, errOut)
		}
	}
}

// TestCallSaysWhereItLogs: call without a configuration logs to the one
// default decision log (the host's), and says so on stderr the first time.
func TestCallSaysWhereItLogs(t *testing.T) {
	state := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + state, "DESKBRIDGE_CONFIG="}
	want := filepath.Join(state, "deskbridge", "decisions.jsonl")
	if runtime.GOOS == "windows" { // the state folder is %LOCALAPPDATA%\DeskBridge\state
		env = []string{"LOCALAPPDATA=" + state, "DESKBRIDGE_CONFIG="}
		want = filepath.Join(state, "DeskBridge", "state", "decisions.jsonl")
	}
	_, errOut, code := runBin(t, "", env, "call", "get_status")
	if code != 0 || !strings.Contains(errOut, "decisions are logged to "+want) {
		t.Fatalf("first call: exit %d, stderr %q; want it to name %s", code, errOut, want)
	}
	if _, err := os.Stat(want); err != nil {
		t.Fatalf("the default decision log was not written: %v", err)
	}
	if _, errOut, _ = runBin(t, "", env, "call", "get_status"); strings.Contains(errOut, "logged to") {
		t.Errorf("the second call says it again: %q", errOut)
	}
}

// TestUninstallReportsOnlyWhatItRemoved: with nothing registered,
// uninstall claims to have removed nothing.
func TestUninstallReportsOnlyWhatItRemoved(t *testing.T) {
	home := t.TempDir()
	out, errOut, code := runBin(t, "", []string{"HOME=" + home, "XDG_CONFIG_HOME="}, "uninstall")
	if code != 0 || strings.Contains(out, "removed") || !strings.Contains(out, "nothing to uninstall") {
		t.Errorf("uninstall with nothing installed: exit %d\n%s%s", code, out, errOut)
	}
}
