package main

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runLogged runs the binary with args, logs what it printed, and returns
// its stdout and exit code.
func runLogged(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, errOut, code := runBin(t, "", nil, args...)
	t.Logf("deskbridge %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
	return out, code
}

var prevHash = regexp.MustCompile(`"prev_hash":"[0-9a-f]{64}"`)

// rechainFile rewrites the log's line i (old replaced by new) and every
// later line's prev_hash and hash, as someone who knows the format would:
// the body is the line without its last 75 bytes, plus "}".
func rechainFile(t *testing.T, path string, i int, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	lines[i] = strings.Replace(lines[i], old, new, 1)
	prev := ""
	for j := i; j < len(lines); j++ {
		body := lines[j][:len(lines[j])-75] + "}"
		if prev != "" {
			body = prevHash.ReplaceAllString(body, `"prev_hash":"`+prev+`"`)
		}
		sum := sha256.Sum256([]byte(body))
		prev = hex.EncodeToString(sum[:])
		lines[j] = body[:len(body)-1] + `,"hash":"` + prev + `"}`
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAuditorsLog: what an auditor does with the binary. The host keeps a
// keyed checkpoint beside its configuration; `log verify --key` finds a
// rewrite the chain alone passes; `log query` answers by outcome, rule and
// path, as JSON lines, CSV and a summary.
func TestAuditorsLog(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	logFile := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	key := filepath.Join(filepath.Dir(cfg), "decision-log.key")
	outside := filepath.Join(filepath.Dir(cfg), "secret.txt")
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	runLogged(t, "--config", cfg, "call", "get_status", "{}")
	runLogged(t, "--config", cfg, "call", "read_file", `{"path":`+quoteJSON(filepath.Join(ws, "a.txt"))+`}`)
	runLogged(t, "--config", cfg, "call", "read_file", `{"path":`+quoteJSON(outside)+`}`)

	if _, code := runLogged(t, "log", "verify", "--log", logFile, "--key", key); code != 0 {
		t.Fatalf("an intact log: exit %d", code)
	}

	out, code := runLogged(t, "log", "query", "--log", logFile, "--outcome", "WORKSPACE_VIOLATION")
	var row map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &row) != nil || row["rule"] != "workspace.outside" || row["target"] != outside || row["action"] != "read_file" {
		t.Fatalf("query by outcome: exit %d, %s", code, out)
	}
	out, _ = runLogged(t, "log", "query", "--log", logFile, "--path", ws, "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) != 2 || recs[0][0] != "time" || recs[1][5] != "read_file" || recs[1][7] != "OK" {
		t.Fatalf("query by path as CSV: %v %q", err, out)
	}
	out, _ = runLogged(t, "log", "query", "--log", logFile, "--summary")
	if !strings.Contains(out, `"action":"read_file","outcome":"OK","count":1`) || !strings.Contains(out, `"action":"read_file","outcome":"WORKSPACE_VIOLATION","count":1`) {
		t.Fatalf("summary: %s", out)
	}

	// The denied read rewritten as allowed, every later hash recomputed.
	rechainFile(t, logFile, 7, `"outcome":"WORKSPACE_VIOLATION"`, `"outcome":"OK"`)
	// Without the key, the checkpoint file left alone still finds it: the
	// chain alone would pass the rewrite (the documented limit).
	if out, code := runLogged(t, "log", "verify", "--log", logFile); code != 1 || !strings.Contains(out, "checkpoint: changed") || !strings.Contains(out, "not authenticated") {
		t.Fatalf("a rewrite without the key: exit %d\n%s", code, out)
	}
	out, code = runLogged(t, "log", "verify", "--log", logFile, "--key", key)
	if code != 1 || !strings.Contains(out, "checkpoint: changed") {
		t.Fatalf("a rewrite with the key: exit %d\n%s", code, out)
	}
}

// TestPolicyDataCommand: `policy data` shows a team's data document under
// data.<team> beside data.config.
func TestPolicyDataCommand(t *testing.T) {
	cfg, _ := writeConfig(t, "")
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "acme"), 0o755)
	os.WriteFile(filepath.Join(dir, "acme", "data.yaml"), []byte("readable:\n  - docs/\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "p.rego"), []byte("package deskbridge.main\n\ndecision := {}\n"), 0o644)
	out, code := runLogged(t, "--config", cfg, "policy", "data", dir)
	var doc map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("exit %d: %s", code, out)
	}
	acme, _ := doc["acme"].(map[string]any)
	config, _ := doc["config"].(map[string]any)
	if acme == nil || acme["readable"] == nil || config == nil || config["allowed_origins"] == nil {
		t.Fatalf("policy data = %s", out)
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestPolicyCheckReportsRunTimeRefusals: `policy check` reports, with file
// and line where there is one, what the host would refuse at start or at
// run time, and warns about rules that read what the input lacks.
func TestPolicyCheckReportsRunTimeRefusals(t *testing.T) {
	team := func(rule string) string {
		return "package deskbridge.policies.team\n\nimport rego.v1\n\n" + rule + "\n"
	}
	cases := []struct {
		name, file, text, want string
		code                   int
	}{
		{"a made-up denial code", "team.rego", team(`deny contains {"code": "NOPE", "rule": "team.x", "message": "m", "priority": 50} if input.request.action == "read_file"`),
			`team.rego:5:24: denial code "NOPE" is not a v1 code`, 1},
		{"the clock", "team.rego", team(`deny contains {"code": "PERMISSION_DENIED", "rule": "team.x", "message": "m", "priority": 50} if time.now_ns() > 0`),
			"team.rego:5:", 1},
		{"a limit the action ignores", "limits.rego", "", "the decision for list_folder sets max_bytes", 1},
		{"a member the input lacks", "team.rego", team(`deny contains {"code": "PERMISSION_DENIED", "rule": "team.x", "message": "m", "priority": 50} if input.approval.by == ""`),
			"team.rego:5:98: warning: input.approval is not a member", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			copyTestTree(t, filepath.Join("..", "..", "rego"), dir, func(p string) bool { return strings.HasSuffix(p, ".rego") })
			if c.file == "limits.rego" {
				b, _ := os.ReadFile(filepath.Join(dir, "limits.rego"))
				c.text = strings.Replace(string(b), `object.get(data.config, ["limits", input.request.action], {}),`,
					`object.union(object.get(data.config, ["limits", input.request.action], {}),
	object.get({"list_folder": {"max_bytes": 1}}, input.request.action, {})),`, 1)
				if c.text == string(b) {
					t.Fatal("limits.rego no longer has the line the test adds a limit after")
				}
			}
			os.WriteFile(filepath.Join(dir, c.file), []byte(c.text), 0o644)
			out, code := runLogged(t, "policy", "check", dir)
			if code != c.code || !strings.Contains(out, c.want) {
				t.Fatalf("exit %d, want %d with %q:\n%s", code, c.code, c.want, out)
			}
		})
	}
}

// TestUnavailableHostLogsItsRefusals: a host whose policy does not load
// refuses every request, and each refusal is in the decision log with the
// cause (rule host.unavailable).
func TestUnavailableHostLogsItsRefusals(t *testing.T) {
	pol := t.TempDir()
	copyTestTree(t, filepath.Join("..", "..", "rego"), pol, func(p string) bool { return strings.HasSuffix(p, ".rego") })
	os.WriteFile(filepath.Join(pol, "team.rego"), []byte("package deskbridge.policies.team\n\nimport rego.v1\n\n"+
		`deny contains {"code": "NOPE", "rule": "team.x", "message": "m"} if input.request.action == "read_file"`+"\n"), 0o644)
	cfg, _ := writeConfig(t, fmt.Sprintf(`,"policy":{"dir":%q}`, pol))
	p := start(t, []string{"--config", cfg, origin})
	mustCode(t, p.request("u1", "get_status", "{}"), "u1", "ACTION_NOT_ALLOWED")
	p.closeAndWait()
	out, code := runLogged(t, "log", "query", "--log", filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl"), "--rule", "host.unavailable")
	if code != 0 || !strings.Contains(out, `"request_id":"u1"`) || !strings.Contains(out, `"outcome":"ACTION_NOT_ALLOWED"`) {
		t.Fatalf("the refusal is not in the log: exit %d\n%s", code, out)
	}
}
