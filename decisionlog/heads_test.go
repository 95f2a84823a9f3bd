package decisionlog

import (
	"crypto/rand"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// signedLog writes rounds of pairs, one Log (one host process) per
// round, each closing with a checkpoint and a signed head.
func signedLog(t *testing.T, rounds int, opts Options) (path, keyPath string) {
	t.Helper()
	dir := t.TempDir()
	path = filepath.Join(dir, "log", "decisions.jsonl")
	os.Mkdir(filepath.Dir(path), 0o700)
	keyPath = filepath.Join(dir, "config", "decision-log.key")
	opts.CheckpointKey = keyPath
	for range rounds {
		l, err := Open(path, opts)
		if err != nil {
			t.Fatal(err)
		}
		writePairs(t, l, 5)
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return path, keyPath
}

// TestSignedHeadsVerifyAndFindARewrite: every close signs a head; the
// heads verify with the public key alone, also after rotation deleted the
// oldest files (the tree continues from a head's frontier), and a log
// rewritten with a recomputed chain and re-keyed checkpoints (the HMAC
// key is on the machine) no longer matches the heads.
func TestSignedHeadsVerifyAndFindARewrite(t *testing.T) {
	path, keyPath := signedLog(t, 6, Options{MaxBytes: 4 << 10, Keep: 2})
	// Windows keeps the key private by its folder's ACL, not by mode bits
	// (as TestCheckpointKeyMustBePrivate).
	if st, err := os.Stat(SigningKeyPath(keyPath)); err != nil || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
		t.Fatalf("signing key: %v %v; want a 0600 file beside the checkpoint key", st, err)
	}
	if first, _ := firstSeq(mustFiles(t, path)[0]); first <= 1 {
		t.Fatalf("the log still starts at seq %d; want rotation to have deleted its first files", first)
	}
	v, err := LoadPublicKey(PublicKeyPath(path))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := VerifyHeads(path, v)
	if err != nil || !rep.OK() || rep.Heads == 0 || rep.Latest.Size != int64(rep.tree.size) {
		t.Fatalf("VerifyHeads = %+v, %v; want the heads to verify up to the log's end", rep, err)
	}

	t.Logf("heads %d, tree leaves %d–%d, notes %v", rep.Heads, rep.tree.base+1, rep.tree.size, rep.Notes)
	// Inclusion proof of one decision, checked with tlog.
	id := decisionIDAt(t, path)
	p, err := ProveDecision(path, id, v)
	if err != nil {
		t.Fatal(err)
	}
	proof, _ := decodeHashes(p.Proof)
	_, lineHash, _ := chainOf([]byte(p.Line))
	leaf, _ := leafHash(lineHash)
	if err := tlog.CheckRecord(proof, rep.Latest.Size, rep.Latest.Root, p.Index, leaf); err != nil {
		t.Fatalf("the inclusion proof does not check: %v", err)
	}

	// The last file rewritten: a line changed, the chain recomputed.
	lines := readLines(t, path)
	writeLines(t, path, rechain(t, lines, len(lines)-2, "req-", "REQ-"))
	if chain, _ := VerifyFile(path); !chain.OK() {
		t.Fatalf("the rechained log does not pass the chain: %v", kinds(chain))
	}
	rep, err = VerifyHeads(path, v)
	if err != nil || rep.OK() || !strings.Contains(strings.Join(rep.Issues, "\n"), "changed: the log's tree at size") {
		t.Fatalf("VerifyHeads of a rewritten log = %v, %v; want it changed", rep.Issues, err)
	}
}

func mustFiles(t *testing.T, path string) []string {
	t.Helper()
	files, _, err := Files(path)
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	return files
}

// decisionIDAt is the decision id of a decision in the active file.
func decisionIDAt(t *testing.T, path string) string {
	t.Helper()
	for _, l := range readLines(t, path) {
		s := string(l)
		if i := strings.Index(s, `"decision_id":"`); i >= 0 && strings.Contains(s, `"phase":"decision"`) {
			return s[i+len(`"decision_id":"`):][:36]
		}
	}
	t.Fatal("no decision in", path)
	return ""
}

// TestHeadsContinueOnlyTheWritersOwnHeads: a head record appended by
// someone without the signing key (an unsigned note and a frontier that
// matches it, committing to a tree of their choosing) is not continued by
// the next head the host signs: that head still matches the log.
func TestHeadsContinueOnlyTheWritersOwnHeads(t *testing.T) {
	path, keyPath := signedLog(t, 2, Options{})
	fake := newMerkleTree()
	for range 20 { // as many leaves as the log has lines, other ones
		if err := fake.add(strings.Repeat("ab", 32)); err != nil {
			t.Fatal(err)
		}
	}
	root, _ := fake.root(fake.size)
	fr, _ := fake.frontier()
	rec, _ := json.Marshal(headRecord{Note: headText(fake.size, root) + "\n— " + SignerName + " AAAAAA==\n", Frontier: encodeHashes(fr)})
	f, _ := os.OpenFile(HeadsPath(path), os.O_WRONLY|os.O_APPEND, 0)
	f.Write(append(rec, '\n'))
	f.Close()
	l, err := Open(path, Options{CheckpointKey: keyPath})
	if err != nil {
		t.Fatal(err)
	}
	writePairs(t, l, 2)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	v, _ := LoadPublicKey(PublicKeyPath(path))
	rep, err := VerifyHeads(path, v)
	if err != nil || rep.Heads != 3 || strings.Contains(strings.Join(rep.Issues, "\n"), "changed") {
		t.Fatalf("VerifyHeads = %d heads, %v, %v; want the three genuine heads to match the log (the planted one reported)", rep.Heads, rep.Issues, err)
	}
}

// TestOpenLogSignsHeadsWhileItRuns: a Log that stays open (the warm
// process) signs a head of what it appended once CheckpointInterval has
// elapsed, without closing, and the head verifies up to its last line.
func TestOpenLogSignsHeadsWhileItRuns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "log", "decisions.jsonl")
	os.Mkdir(filepath.Dir(path), 0o700)
	keyPath := filepath.Join(dir, "config", "decision-log.key")
	l, err := Open(path, Options{CheckpointKey: keyPath, CheckpointInterval: time.Millisecond, SyncInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	writePairs(t, l, 5)
	if err := l.Sync(); err != nil {
		t.Fatal(err)
	}
	lines := int64(len(readLines(t, path)))
	deadline := time.Now().Add(10 * time.Second)
	for {
		if v, err := LoadPublicKey(PublicKeyPath(path)); err == nil {
			rep, err := VerifyHeads(path, v)
			if err == nil && rep.OK() && rep.Latest.Size == lines {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no signed head covering the %d lines of a Log that stays open", lines)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if cps, err := os.ReadFile(CheckpointPath(path)); err != nil || len(cps) == 0 {
		t.Fatalf("checkpoints of the open Log: %q, %v; want one beside the head", cps, err)
	}
}

// TestWitnessedHeads: a witness file is read in either form (FILE.heads
// lines, or bare signed notes one after another); a genuine log extends
// every witnessed head; a witnessed head the public keys given do not
// verify (the key beside the log replaced together with the log), a
// line that is no head, and an empty witness file are issues, never
// skipped.
func TestWitnessedHeads(t *testing.T) {
	path, _ := signedLog(t, 3, Options{})
	v, err := LoadPublicKey(PublicKeyPath(path))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(HeadsPath(path))
	fromRecords := WitnessHeads(b)
	var bare []byte
	for _, m := range fromRecords {
		bare = append(bare, m...)
	}
	if fromBare := WitnessHeads(bare); len(fromRecords) != 3 || len(fromBare) != 3 {
		t.Fatalf("WitnessHeads read %d heads from FILE.heads lines and %d from bare notes; want 3 and 3", len(fromRecords), len(WitnessHeads(bare)))
	}
	check := func(msgs [][]byte, keys PublicKeys) HeadReport {
		rep, err := VerifyHeads(path, v)
		if err != nil {
			t.Fatal(err)
		}
		rep.CheckWitnessed(msgs, keys)
		return rep
	}
	if rep := check(WitnessHeads(bare), v); !rep.OK() {
		t.Fatalf("a genuine log against its witnessed heads: %v", rep.Issues)
	}

	_, other, err := note.GenerateKey(rand.Reader, SignerName)
	if err != nil {
		t.Fatal(err)
	}
	ov, _ := note.NewVerifier(other)
	replaced := PublicKeys{Verifiers: note.VerifierList(ov), IDs: []string{keyID(ov.KeyHash())}}
	for name, tc := range map[string]struct {
		msgs [][]byte
		keys PublicKeys
		want string
	}{
		"key replaced": {fromRecords, replaced, "not checked: witnessed head 1 does not verify"},
		"not a head":   {WitnessHeads([]byte("{\"note\": 3}\n")), v, "not checked: witnessed head 1"},
		"empty":        {WitnessHeads(nil), v, "holds no signed head"},
	} {
		if rep := check(tc.msgs, tc.keys); rep.OK() || !strings.Contains(strings.Join(rep.Issues, "\n"), tc.want) {
			t.Errorf("%s: issues %v; want %q", name, rep.Issues, tc.want)
		}
	}
}

// TestHeadsContinueFromFarBack: writeHead reads FILE.heads from its end;
// when the last 64 KiB hold no head of the writer's own (others' records,
// a line cut by the piece's edge), it reads further back, and the head it
// signs still continues the genuine ones.
func TestHeadsContinueFromFarBack(t *testing.T) {
	path, keyPath := signedLog(t, 2, Options{})
	fake := newMerkleTree()
	for range 20 {
		if err := fake.add(strings.Repeat("ab", 32)); err != nil {
			t.Fatal(err)
		}
	}
	root, _ := fake.root(fake.size)
	fr, _ := fake.frontier()
	rec, _ := json.Marshal(headRecord{Note: headText(fake.size, root) + "\n— " + SignerName + " AAAAAA==\n", Frontier: encodeHashes(fr)})
	f, _ := os.OpenFile(HeadsPath(path), os.O_WRONLY|os.O_APPEND, 0)
	for written := 0; written < 3*headTail; written += len(rec) + 1 {
		f.Write(append(rec, '\n'))
	}
	f.Close()
	l, err := Open(path, Options{CheckpointKey: keyPath})
	if err != nil {
		t.Fatal(err)
	}
	writePairs(t, l, 2)
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	v, _ := LoadPublicKey(PublicKeyPath(path))
	rep, err := VerifyHeads(path, v)
	if err != nil || rep.Heads != 3 || strings.Contains(strings.Join(rep.Issues, "\n"), "changed") {
		t.Fatalf("VerifyHeads = %d heads, %v, %v; want the three genuine heads to match the log", rep.Heads, rep.Issues, err)
	}
}

// TestReadHeadTailWholeLinesOnly: the tail's first line, cut by the
// piece's edge, is not read as a record.
func TestReadHeadTailWholeLinesOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "decisions.jsonl")
	a, _ := json.Marshal(headRecord{Note: "first\n", Frontier: []string{"x"}})
	b, _ := json.Marshal(headRecord{Note: "second\n", Frontier: []string{"y"}})
	if err := os.WriteFile(HeadsPath(path), []byte(string(a)+"\n"+string(b)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, whole, err := readHeadTail(path, int64(len(b)+5))
	if err != nil || whole || len(recs) != 1 || recs[0].Note != "second\n" {
		t.Fatalf("readHeadTail = %+v, whole %v, %v; want only the second record", recs, whole, err)
	}
	if recs, whole, err := readHeadTail(path, 1<<20); err != nil || !whole || len(recs) != 2 {
		t.Fatalf("readHeadTail of the whole file = %+v, whole %v, %v", recs, whole, err)
	}
}
