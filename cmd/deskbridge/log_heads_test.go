package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// latestHead writes the note of the log's latest signed head to a file of
// the auditor's and returns its name.
func latestHead(t *testing.T, logFile string) string {
	t.Helper()
	b, err := os.ReadFile(logFile + ".heads")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var rec struct{ Note string }
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &rec); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "head.txt")
	os.WriteFile(name, []byte(rec.Note), 0o600)
	return name
}

// TestSignedHeadsThroughTheBinary: each host process signs a head of the
// log when it closes it (Ed25519, a signed note); log verify checks them
// with the public key; a head the auditor kept proves that the log
// extends it; log prove gives an inclusion proof that docs/logverify, a
// program that is not DeskBridge, checks; and a forger who holds the whole
// machine, keys included, and rewrites the log is found by the head the
// auditor kept (#36.4).
func TestSignedHeadsThroughTheBinary(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	logFile := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	read := func(p string) { runLogged(t, "--config", cfg, "call", "read_file", `{"path":`+quoteJSON(p)+`}`) }
	read(filepath.Join(ws, "a.txt"))
	read(filepath.Join(filepath.Dir(cfg), "secret.txt"))
	// Windows keeps the key private by its folder's ACL, not by mode bits.
	if st, err := os.Stat(filepath.Join(filepath.Dir(cfg), "decision-log.sign.key")); err != nil || runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Fatalf("signing key: %v, %v; want a 0600 file beside the configuration", st, err)
	}
	saved := latestHead(t, logFile)
	read(filepath.Join(ws, "a.txt"))
	runLogged(t, "--config", cfg, "call", "get_status", "{}")

	pub := filepath.Join(filepath.Dir(cfg), "decision-log.pub")
	out, code := runLogged(t, "log", "verify", "--log", logFile, "--pub", pub, "--head", saved)
	if code != 0 || !strings.Contains(out, "signed heads: 4 verified") {
		t.Fatalf("verify with the public key and a saved head: exit %d\n%s", code, out)
	}

	// An inclusion proof of the denied decision, checked without DeskBridge.
	q, _ := runLogged(t, "log", "query", "--log", logFile, "--outcome", "WORKSPACE_VIOLATION")
	var row struct {
		DecisionID string `json:"decision_id"`
	}
	if err := json.Unmarshal([]byte(q), &row); err != nil || row.DecisionID == "" {
		t.Fatalf("query: %v %s", err, q)
	}
	proof, code := runLogged(t, "log", "prove", "--log", logFile, "--decision", row.DecisionID)
	if code != 0 {
		t.Fatalf("prove: exit %d", code)
	}
	proofFile := filepath.Join(t.TempDir(), "proof.json")
	os.WriteFile(proofFile, []byte(proof), 0o600)
	if out, err := runVerifier(t, pub, proofFile); err != nil || !strings.HasPrefix(out, "OK: line ") {
		t.Fatalf("docs/logverify: %v\n%s", err, out)
	}
	var p map[string]any
	json.Unmarshal([]byte(proof), &p)
	p["line"] = strings.Replace(p["line"].(string), "WORKSPACE_VIOLATION", "OK", 1)
	b, _ := json.Marshal(p)
	os.WriteFile(proofFile, b, 0o600)
	if out, err := runVerifier(t, pub, proofFile); err == nil || !strings.Contains(out, "NOT proved") {
		t.Fatalf("docs/logverify passed a changed line: %v\n%s", err, out)
	}

	// The forger holds the machine: rewrites the denied decision as
	// allowed, recomputes the chain, drops the checkpoints and heads and
	// has the host sign the rewritten log with the machine's keys.
	lines, _ := os.ReadFile(logFile)
	n := strings.Index(string(lines), `"outcome":"WORKSPACE_VIOLATION"`)
	i := strings.Count(string(lines[:n]), "\n")
	rechainFile(t, logFile, i, `"outcome":"WORKSPACE_VIOLATION"`, `"outcome":"OK"`)
	os.Remove(logFile + ".checkpoints")
	os.Remove(logFile + ".heads")
	runLogged(t, "--config", cfg, "call", "get_status", "{}")
	if out, code := runLogged(t, "log", "verify", "--log", logFile, "--pub", pub); code != 0 {
		t.Fatalf("the forger's log should pass without a kept head (the documented limit): exit %d\n%s", code, out)
	}
	out, code = runLogged(t, "log", "verify", "--log", logFile, "--pub", pub, "--head", saved)
	if code != 1 || !strings.Contains(out, "not an extension of the head given") {
		t.Fatalf("verify of the forged log against the kept head: exit %d\n%s", code, out)
	}
	_, errOut, code := runBin(t, "", nil, "replay", "--log", logFile, "--head", saved)
	if code != 1 || !strings.Contains(errOut, "not an extension of the head given") {
		t.Fatalf("replay of the forged log against the kept head: exit %d\n%s", code, errOut)
	}
}

// runVerifier runs docs/logverify: the program DESKBRIDGE_TEST_LOGVERIFY
// names (built by scripts/wine/test.sh, as there is no Go toolchain
// inside Wine), else with go run.
func runVerifier(t *testing.T, pub, proof string) (string, error) {
	t.Helper()
	if prebuilt := os.Getenv("DESKBRIDGE_TEST_LOGVERIFY"); prebuilt != "" {
		out, err := exec.Command(prebuilt, pub, proof).CombinedOutput()
		t.Logf("logverify: %s", out)
		return string(out), err
	}
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goTool); err != nil {
		t.Skipf("no go tool to run docs/logverify: %v", err)
	}
	cmd := exec.Command(goTool, "run", "./docs/logverify", pub, proof)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	t.Logf("logverify: %s", out)
	return string(out), err
}

// TestWitnessFindsARollback: an auditor (a witness) keeps the signed
// heads of a log; a forger who rolls the log back together with its
// heads and checkpoints (copying older versions back) passes log verify
// alone, but verify --witness names the witnessed head the log no longer
// extends and exits 1; a genuine longer log passes (#36.4).
func TestWitnessFindsARollback(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	logFile := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	pub := filepath.Join(filepath.Dir(cfg), "decision-log.pub")
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	read := func(p string) { runLogged(t, "--config", cfg, "call", "read_file", `{"path":`+quoteJSON(p)+`}`) }
	read(filepath.Join(ws, "a.txt"))
	older := filepath.Join(t.TempDir(), "older")
	os.Mkdir(older, 0o700)
	kept := []string{logFile, logFile + ".heads", logFile + ".checkpoints"}
	for _, f := range kept {
		if err := copyFile(f, filepath.Join(older, filepath.Base(f)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	read(filepath.Join(filepath.Dir(cfg), "secret.txt"))

	// The witness keeps every head so far: FILE.heads lines, and the
	// latest as a bare signed note.
	heads, err := os.ReadFile(logFile + ".heads")
	if err != nil {
		t.Fatal(err)
	}
	note, _ := os.ReadFile(latestHead(t, logFile))
	witness := filepath.Join(t.TempDir(), "witness.heads")
	os.WriteFile(witness, append(heads, note...), 0o600)

	read(filepath.Join(ws, "a.txt"))
	if out, code := runLogged(t, "log", "verify", "--log", logFile, "--pub", pub, "--witness", witness); code != 0 {
		t.Fatalf("verify --witness of a genuine longer log: exit %d\n%s", code, out)
	}

	for _, f := range kept {
		os.Remove(f)
		if err := copyFile(filepath.Join(older, filepath.Base(f)), f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if out, code := runLogged(t, "log", "verify", "--log", logFile, "--pub", pub); code != 0 {
		t.Fatalf("the rolled-back log should pass without a witness (the documented limit): exit %d\n%s", code, out)
	}
	out, code := runLogged(t, "log", "verify", "--log", logFile, "--pub", pub, "--witness", witness)
	if code != 1 || !strings.Contains(out, "NOT intact") {
		t.Fatalf("verify --witness of a rolled-back log: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "head: removed: the log ends at seq 3, before the end of witnessed head 2 (size 6, root ") || !strings.Contains(out, "rolled back") {
		t.Fatalf("verify --witness does not name the witnessed head the log no longer extends:\n%s", out)
	}
	_, errOut, code := runBin(t, "", nil, "replay", "--log", logFile, "--pub", pub, "--witness", witness)
	if code != 1 || !strings.Contains(errOut, "before the end of witnessed head 2") {
		t.Fatalf("replay --witness of a rolled-back log: exit %d\n%s", code, errOut)
	}
}
