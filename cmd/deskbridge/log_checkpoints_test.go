package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

var seqMember = regexp.MustCompile(`"seq":([0-9]+)`)

// forgeDeletion deletes from the log at path the lines of the first
// decision whose line holds match (its decision and its outcome), then
// renumbers seq and recomputes prev_hash and hash of every later line, as
// a forger who knows the format does (about 20 lines of Python in #36).
func forgeDeletion(t *testing.T, path, match string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	id := ""
	for _, l := range lines {
		if strings.Contains(l, `"phase":"decision"`) && strings.Contains(l, match) {
			id = regexp.MustCompile(`"decision_id":"([^"]+)"`).FindStringSubmatch(l)[1]
			break
		}
	}
	if id == "" {
		t.Fatalf("no decision with %s in %s", match, path)
	}
	var kept []string
	prev, cut := "", 0
	for i, l := range lines {
		if strings.Contains(l, `"decision_id":"`+id+`"`) {
			cut++
			continue
		}
		if cut == 0 {
			kept = append(kept, l)
			continue
		}
		body := l[:len(l)-75] + "}"
		if prev == "" { // the first line after the cut chains from the line before it
			prev = lines[i-cut][len(lines[i-cut])-66 : len(lines[i-cut])-2]
		}
		body = prevHash.ReplaceAllString(body, `"prev_hash":"`+prev+`"`)
		locs := seqMember.FindAllStringSubmatchIndex(body, -1)
		last := locs[len(locs)-1] // the chain's seq, after the event's own members
		n, _ := strconv.Atoi(body[last[2]:last[3]])
		body = body[:last[2]] + strconv.Itoa(n-cut) + body[last[3]:]
		sum := sha256.Sum256([]byte(body))
		prev = hex.EncodeToString(sum[:])
		kept = append(kept, body[:len(body)-1]+`,"hash":"`+prev+`"}`)
	}
	if err := os.WriteFile(path, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestExportCarriesCheckpoints: log export carries the checkpoint file,
// so that a forger who deletes a denied decision from the export,
// renumbers seq and recomputes the chain is found by log verify and by
// replay, with the key and, for a forger who left the checkpoints alone,
// without it; replay names what it could not check (#36.2).
func TestExportCarriesCheckpoints(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	logFile := filepath.Join(filepath.Dir(cfg), "log", "decisions.jsonl")
	key := filepath.Join(filepath.Dir(cfg), "decision-log.key")
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o644)
	runLogged(t, "--config", cfg, "call", "read_file", `{"path":`+quoteJSON(filepath.Join(ws, "a.txt"))+`}`)
	runLogged(t, "--config", cfg, "call", "read_file", `{"path":`+quoteJSON(filepath.Join(filepath.Dir(cfg), "secret.txt"))+`}`)
	runLogged(t, "--config", cfg, "call", "get_status", "{}")

	export := func() string {
		dst := filepath.Join(t.TempDir(), "audit")
		if _, code := runLogged(t, "log", "export", "--log", logFile, "--to", dst); code != 0 {
			t.Fatalf("export: exit %d", code)
		}
		if _, err := os.Stat(filepath.Join(dst, "decisions.jsonl.checkpoints")); err != nil {
			t.Fatalf("the export has no checkpoint file: %v", err)
		}
		return filepath.Join(dst, "decisions.jsonl")
	}
	genuine := export()
	out, code := runLogged(t, "replay", "--log", genuine, "--key", key)
	if code != 0 || !strings.Contains(out, "checkpoint(s) held") {
		t.Fatalf("replay of a genuine export with the key: exit %d\n%s", code, out)
	}
	_, errOut, code := runBin(t, "", nil, "replay", "--log", genuine)
	if code != 0 || !strings.Contains(errOut, "not checked: the 3 checkpoint(s) match the log, but their MACs were not checked") || !strings.Contains(errOut, "not checked: the log's end") {
		t.Fatalf("replay of a genuine export without the key: exit %d; want 0 and what was not checked named\n%s", code, errOut)
	}

	forged := export()
	forgeDeletion(t, forged, `"outcome":"WORKSPACE_VIOLATION"`)
	if out, code := runLogged(t, "log", "verify", "--log", forged, "--key", key); code != 1 || !strings.Contains(out, "checkpoint: removed") {
		t.Errorf("verify of the forged export with the key: exit %d, want 1 and the cut named\n%s", code, out)
	}
	for _, args := range [][]string{{"--key", key}, nil} {
		_, errOut, code := runBin(t, "", nil, append([]string{"replay", "--log", forged}, args...)...)
		if code != 1 || !strings.Contains(errOut, "checkpoint: removed") {
			t.Errorf("replay %v of the forged export: exit %d, want 1 and the cut named\n%s", args, code, errOut)
		}
	}

	// A forger who rewrites the checkpoint file too, without the key:
	// only the key finds it.
	cps := filepath.Join(filepath.Dir(forged), "decisions.jsonl.checkpoints")
	b, _ := os.ReadFile(cps)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	last := lines[len(lines)-1]
	seq := seqMember.FindStringSubmatch(last)[1]
	n, _ := strconv.Atoi(seq)
	tail := readTailHash(t, forged)
	fake := strings.Replace(seqMember.ReplaceAllString(last, fmt.Sprintf(`"seq":%d`, n-2)), last[strings.Index(last, `"hash":"`)+8:][:64], tail, 1)
	os.WriteFile(cps, []byte(strings.Join(append(lines[:len(lines)-1], fake), "\n")+"\n"), 0o600)
	if _, errOut, code := runBin(t, "", nil, "replay", "--log", forged, "--key", key); code != 1 || !strings.Contains(errOut, "(forged)") {
		t.Errorf("replay with the key of a forged export with forged checkpoints: exit %d\n%s", code, errOut)
	}
}

// readTailHash is the hash of the last line of the log file at path.
func readTailHash(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.TrimSuffix(string(b), "\n")
	return s[len(s)-66 : len(s)-2]
}

// TestCheckpointsOfAnotherKeyAreNotForged: two configurations without a
// log path of their own share the default log, each with its key; with
// either key, the other's checkpoints are "not checked (key id …)", never
// forged, and the log verifies (#36.3).
func TestCheckpointsOfAnotherKeyAreNotForged(t *testing.T) {
	state := t.TempDir()
	env := []string{"XDG_STATE_HOME=" + state, "LOCALAPPDATA=" + state}
	var keys []string
	for _, name := range []string{"one", "other"} {
		dir := filepath.Join(t.TempDir(), name)
		ws := filepath.Join(dir, "ws")
		os.MkdirAll(ws, 0o755)
		cfg := filepath.Join(dir, "config.json")
		os.WriteFile(cfg, fmt.Appendf(nil, `{"workspaces":[{"name":"Demo","path":%q}],"allowed_origins":[%q]}`, ws, origin), 0o600)
		for range 2 {
			if out, errOut, code := runBin(t, "", env, "--config", cfg, "call", "get_status", "{}"); code != 0 {
				t.Fatalf("call: exit %d\n%s%s", code, out, errOut)
			}
		}
		keys = append(keys, filepath.Join(dir, "decision-log.key"))
	}
	logFile := filepath.Join(state, "deskbridge", "decisions.jsonl") // config.DefaultStateDir
	if runtime.GOOS == "windows" {
		logFile = filepath.Join(state, "DeskBridge", "state", "decisions.jsonl")
	}
	for _, key := range keys {
		out, errOut, code := runBin(t, "", env, "log", "verify", "--log", logFile, "--key", key)
		if code != 0 || strings.Contains(out, "forged") || !strings.Contains(out, "2 checkpoint(s) not checked (key id") || !strings.Contains(out, "signed heads: 4 verified") {
			t.Errorf("verify with %s: exit %d; want 0, the other key's checkpoints not checked, every head verified with the keys beside the log\n%s%s", key, code, out, errOut)
		}
		// The signed heads with one configuration's public key alone.
		pub := filepath.Join(filepath.Dir(key), "decision-log.pub")
		out, errOut, code = runBin(t, "", env, "log", "verify", "--log", logFile, "--key", key, "--pub", pub)
		if code != 0 || strings.Contains(out, "forged") || strings.Count(out, "signed with another key") != 2 || !strings.Contains(out, "signed heads: 2 verified") {
			t.Errorf("verify with %s and %s: exit %d; want 0, the other key's heads not checked\n%s%s", key, pub, code, out, errOut)
		}
	}
}
