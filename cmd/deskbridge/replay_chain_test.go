package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// loggedDecisions makes a decision log through the binary (allowed and
// denied calls) and returns its path.
func loggedDecisions(t *testing.T) string {
	t.Helper()
	cfg, ws := writeConfig(t, "")
	for _, c := range [][]string{
		{"get_status", "{}"},
		{"read_file", `{"path":` + quoteJSON(filepath.Join(t.TempDir(), "outside.txt")) + `}`},
		{"list_folder", `{"path":` + quoteJSON(ws) + `}`},
	} {
		runBin(t, ws, nil, "--config", cfg, "call", c[0], c[1])
	}
	log := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	if _, err := os.Stat(log); err != nil {
		t.Fatal(err)
	}
	return log
}

// tamper turns the log's denial into an allowance, as someone hiding it
// would.
func tamper(t *testing.T, log string) {
	t.Helper()
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(b), `"WORKSPACE_VIOLATION"`, `"OK"`, 1)
	if changed == string(b) {
		t.Fatalf("no denial in the log to tamper with:\n%s", b)
	}
	if err := os.WriteFile(log, []byte(changed), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestReplayRefusesATamperedLog: the hash chain is checked before
// anything is replayed; a changed log is refused (exit 1, nothing
// replayed), and with --force it is replayed with the warning in the text
// and HTML reports.
func TestReplayRefusesATamperedLog(t *testing.T) {
	log := loggedDecisions(t)
	out, errOut, code := runBin(t, "", nil, "replay", "--log", log)
	if code != 0 || !strings.Contains(out, "log "+log+", chain head ") || !strings.Contains(out, "compared with the policy that decided each decision") {
		t.Fatalf("intact log: exit %d\n%s%s", code, out, errOut)
	}
	tamper(t, log)
	out, errOut, code = runBin(t, "", nil, "replay", "--log", log)
	if code != 1 || out != "" || !strings.Contains(errOut, "refusing to replay") || !strings.Contains(errOut, "changed") {
		t.Fatalf("tampered log: exit %d\nstdout %q\nstderr %s", code, out, errOut)
	}
	html := filepath.Join(t.TempDir(), "r.html")
	out, errOut, code = runBin(t, "", nil, "replay", "--log", log, "--force", "--html", html)
	if code != 1 || !strings.Contains(out, "WARNING: the log's hash chain is NOT intact") {
		t.Fatalf("--force: exit %d\n%s%s", code, out, errOut)
	}
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{log, "chain head", "NOT intact", "compared with", "replayed at"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the HTML report does not say %q", want)
		}
	}
}

// TestExportedLogReplaysElsewhere: log export copies the log and the
// policy revisions it names, so the copy replays after the original is
// gone; a revision missing from the store is named with what to copy.
func TestExportedLogReplaysElsewhere(t *testing.T) {
	log := loggedDecisions(t)
	dst := filepath.Join(t.TempDir(), "audit")
	out, errOut, code := runBin(t, "", nil, "log", "export", "--log", log, "--to", dst)
	if code != 0 || !strings.Contains(out, "1 of 1 policy revision(s)") {
		t.Fatalf("export: exit %d\n%s%s", code, out, errOut)
	}
	if err := os.RemoveAll(filepath.Dir(log)); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dst, "decisions.jsonl")
	if out, errOut, code = runBin(t, "", nil, "replay", "--log", copied); code != 0 || !strings.Contains(out, "0 unreplayable") {
		t.Fatalf("replay of the export: exit %d\n%s%s", code, out, errOut)
	}

	// The exported store without its revision: replay and a second export
	// both say which folder to copy.
	entries, err := os.ReadDir(filepath.Join(dst, "policies"))
	if err != nil || len(entries) != 1 {
		t.Fatalf("policies exported: %v %v", entries, err)
	}
	hash := entries[0].Name()
	rev := filepath.Join(dst, "policies", hash)
	os.Chmod(rev, 0o700)
	filepath.Walk(rev, func(p string, _ os.FileInfo, _ error) error { return os.Chmod(p, 0o700) })
	if err := os.RemoveAll(rev); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runBin(t, "", nil, "replay", "--log", copied)
	if code != 1 || !strings.Contains(out, "copy the folder "+rev) {
		t.Errorf("replay without the revision: exit %d\n%s%s", code, out, errOut)
	}
	_, errOut, code = runBin(t, "", nil, "log", "export", "--log", copied, "--to", filepath.Join(t.TempDir(), "again"))
	if code != 1 || !strings.Contains(errOut, "policy revision "+hash+" is not in") || !strings.Contains(errOut, "copy the folder "+hash) {
		t.Errorf("export without the revision: exit %d\n%s", code, errOut)
	}
}

// TestVerifyHeadMismatchInWords: a log that does not end at the expected
// head is reported in a sentence, not as a line number 0.
func TestVerifyHeadMismatchInWords(t *testing.T) {
	log := loggedDecisions(t)
	out, _, code := runBin(t, "", nil, "log", "verify", "--log", log, "--head", strings.Repeat("0", 64))
	if code != 1 || strings.Contains(out, ":0:") || !strings.Contains(out, "does not end at the expected head") {
		t.Errorf("exit %d\n%s", code, out)
	}
}
