package decisionlog

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

// A signed head is a checkpoint anyone can check with a public key: the
// size and root hash of the log's Merkle tree (tree.go), in the
// transparency-log checkpoint format, signed with Ed25519 as a signed
// note (golang.org/x/mod/sumdb/note):
//
//	deskbridge decision log
//	<tree size>
//	<base64 root hash>
//
//	— deskbridge-decision-log <base64(key hash (4 bytes) || signature)>
//
// A Log with Options.CheckpointKey appends one to FILE.heads at Close,
// beside the keyed checkpoint: signing happens once per checkpoint, never
// per line. The private key is decision-log.sign.key beside the checkpoint
// key (0600, outside the log folder); its public key (note verifier key)
// is decision-log.pub there and FILE.pub beside the log, which log export
// carries.

// HeadOrigin is the first line of every signed head.
const HeadOrigin = "deskbridge decision log"

// SignerName is the name of the signing key, in each signature line.
const SignerName = "deskbridge-decision-log"

// HeadsPath is the file of signed heads of the log at path.
func HeadsPath(path string) string { return path + ".heads" }

// PublicKeyPath is the copy of the public key beside the log at path.
func PublicKeyPath(path string) string { return path + ".pub" }

// SigningKeyPath is the private key of the signed heads, beside the
// checkpoint key at keyPath (its name matches the secret class: *.key).
func SigningKeyPath(keyPath string) string {
	return filepath.Join(filepath.Dir(keyPath), "decision-log.sign.key")
}

// VerifierKeyPath is its public key, beside it.
func VerifierKeyPath(keyPath string) string {
	return filepath.Join(filepath.Dir(keyPath), "decision-log.pub")
}

// headRecord is one line of FILE.heads: the signed note and the frontier
// of the tree it signs (the hashes of its complete subtrees, largest
// first, base64), from which the next head is computed once rotation has
// deleted the lines below it. The frontier is not signed: a reader checks
// it against the signed root before using it.
type headRecord struct {
	Note     string   `json:"note"`
	Frontier []string `json:"frontier"`
}

// Head is a signed head as read.
type Head struct {
	Size  int64     `json:"size"`
	Root  tlog.Hash `json:"-"`
	KeyID string    `json:"key_id"` // the signature's key hash, 8 hex digits
	Note  string    `json:"note"`   // the signed note as written
}

// RootBase64 is the root hash as the note states it.
func (h Head) RootBase64() string { return base64.StdEncoding.EncodeToString(h.Root[:]) }

// headText is the text of the note of a tree of size n with root.
func headText(n int64, root tlog.Hash) string {
	return fmt.Sprintf("%s\n%d\n%s\n", HeadOrigin, n, base64.StdEncoding.EncodeToString(root[:]))
}

// parseHeadText reads the size and root from a note's text.
func parseHeadText(text string) (int64, tlog.Hash, error) {
	lines := strings.Split(text, "\n")
	if len(lines) < 4 || lines[0] != HeadOrigin || lines[len(lines)-1] != "" {
		return 0, tlog.Hash{}, errors.New("not a signed head of a DeskBridge decision log")
	}
	n, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil || n < 0 {
		return 0, tlog.Hash{}, fmt.Errorf("bad tree size %q", lines[1])
	}
	hs, err := decodeHashes([]string{lines[2]})
	if err != nil {
		return 0, tlog.Hash{}, err
	}
	return n, hs[0], nil
}

// loadOrCreateSigner reads the signing key beside the checkpoint key at
// keyPath, or makes one (0600) and its public key when there is none.
func loadOrCreateSigner(keyPath string) (note.Signer, string, error) {
	name := SigningKeyPath(keyPath)
	skey, err := readPrivate(name)
	if errors.Is(err, fs.ErrNotExist) {
		s, v, gerr := note.GenerateKey(rand.Reader, SignerName)
		if gerr != nil {
			return nil, "", gerr
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o700); err != nil {
			return nil, "", err
		}
		f, cerr := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(cerr, fs.ErrExist) { // another host made it meanwhile
			return loadOrCreateSigner(keyPath)
		}
		if cerr != nil {
			return nil, "", cerr
		}
		_, werr := f.WriteString(s + "\n")
		if werr = errors.Join(werr, f.Close()); werr != nil {
			return nil, "", werr
		}
		if err := os.WriteFile(VerifierKeyPath(keyPath), []byte(v+"\n"), 0o644); err != nil {
			return nil, "", err
		}
		skey, err = s, nil
	}
	if err != nil {
		return nil, "", err
	}
	signer, err := note.NewSigner(skey)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", name, err)
	}
	vkey, err := os.ReadFile(VerifierKeyPath(keyPath))
	if err != nil {
		return nil, "", err
	}
	return signer, strings.TrimSpace(string(vkey)), nil
}

// readPrivate reads a private key file that only its owner may read.
func readPrivate(name string) (string, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return "", err
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		return "", fmt.Errorf("%s: the signing key file may be read or written by others; it must be 0600", name)
	}
	b, err := os.ReadFile(name)
	return strings.TrimSpace(string(b)), err
}

// readHeadRecords reads FILE.heads; a line that does not parse is skipped
// (a torn last line).
func readHeadRecords(path string) ([]headRecord, error) {
	b, err := os.ReadFile(HeadsPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parseHeadRecords(b)
}

// parseHeadRecords parses head record lines, skipping a line that does
// not parse.
func parseHeadRecords(b []byte) ([]headRecord, error) {
	var out []headRecord
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r headRecord
		if json.Unmarshal(sc.Bytes(), &r) == nil && r.Note != "" {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// headTail is how much of FILE.heads's end writeHead reads first: some
// hundred records, where the latest head it continues is found. A file
// grows by a record for every host that wrote a line, so reading it whole
// would make every host's close slower than the last.
const headTail = 64 << 10

// readHeadTail reads the head records in the last n bytes of FILE.heads
// (whole lines only); whole says they are the whole file.
func readHeadTail(path string, n int64) (recs []headRecord, whole bool, err error) {
	f, err := os.Open(HeadsPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	off := max(fi.Size()-n, 0)
	b := make([]byte, fi.Size()-off)
	if _, err := f.ReadAt(b, off); err != nil {
		return nil, false, err
	}
	if off > 0 { // the first line may have begun before the tail
		i := bytes.IndexByte(b, '\n')
		b = b[i+1:] // i == -1: no whole line, b empty
		if i < 0 {
			b = nil
		}
	}
	recs, err = parseHeadRecords(b)
	return recs, off == 0, err
}

// seedFromTail starts t from the latest own head of FILE.heads
// (seedFromLatest), reading the file from its end in growing pieces until
// one is found or the whole file was read.
func seedFromTail(t *merkleTree, path string, v note.Verifiers) error {
	for n := int64(headTail); ; n *= 2 {
		recs, whole, err := readHeadTail(path, n)
		if err != nil {
			return err
		}
		if seedFromLatest(t, recs, v) || whole {
			return nil
		}
	}
}

// writeHead appends to FILE.heads a signed head of the log as it is now,
// when it has lines no head covers yet. It continues the tree of the
// latest head written before, so only the lines after it are read. The
// file lock is held by the caller, so the log does not move meanwhile.
func writeHead(path, keyPath string) error {
	signer, vkey, err := loadOrCreateSigner(keyPath)
	if err != nil {
		return fmt.Errorf("signing key: %w", err)
	}
	t := newMerkleTree()
	own, err := note.NewVerifier(vkey)
	if err != nil {
		return err
	}
	if err := seedFromTail(t, path, note.VerifierList(own)); err != nil {
		return err
	}
	before := t.size
	if err := growTree(path, t, true); err != nil {
		if t.size == 0 {
			return nil // rotation deleted the log's first lines before any head was signed: no tree to continue
		}
		return fmt.Errorf("no signed head: %w", err)
	}
	if t.size == before {
		return nil
	}
	root, err := t.root(t.size)
	if err != nil {
		return err
	}
	msg, err := note.Sign(&note.Note{Text: headText(t.size, root)}, signer)
	if err != nil {
		return err
	}
	fr, err := t.frontier()
	if err != nil {
		return err
	}
	line, err := json.Marshal(headRecord{Note: string(msg), Frontier: encodeHashes(fr)})
	if err != nil {
		return err
	}
	if err := writePublicKey(path, vkey); err != nil {
		return err
	}
	f, err := openAppend(HeadsPath(path))
	if err != nil {
		return err
	}
	_, err = f.Write(append(line, '\n'))
	return errors.Join(err, f.Close())
}

// writePublicKey adds the public key to those beside the log (FILE.pub,
// one a line: configurations that share a log each sign with their own),
// for log export to carry, unless it is there already.
func writePublicKey(path, vkey string) error {
	b, err := os.ReadFile(PublicKeyPath(path))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for line := range strings.Lines(string(b)) {
		if strings.TrimSpace(line) == vkey {
			return nil
		}
	}
	f, err := os.OpenFile(PublicKeyPath(path), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = f.WriteString(vkey + "\n")
	return errors.Join(err, f.Close())
}

// seedFromLatest starts t from the frontier of the latest head record
// signed with the writer's own key (v) whose frontier hashes to the root
// it signs. A record anyone else appended (FILE.heads is in the log's
// folder) is never continued: its frontier could commit the next head to
// a tree of their choosing. It reports whether it found one.
func seedFromLatest(t *merkleTree, recs []headRecord, v note.Verifiers) bool {
	for i := len(recs) - 1; i >= 0; i-- {
		h, err := openHead([]byte(recs[i].Note), v)
		if err != nil {
			continue
		}
		fr, err := decodeHashes(recs[i].Frontier)
		s := newMerkleTree()
		if err != nil || s.seed(h.Size, fr) != nil {
			continue
		}
		if got, err := s.root(h.Size); err != nil || got != h.Root {
			continue
		}
		*t = *s
		return true
	}
	return false
}
