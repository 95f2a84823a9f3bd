// Command logverify checks, without DeskBridge, a proof that one decision
// is in a signed head of a DeskBridge decision log, as `deskbridge log
// prove` prints it: the head's Ed25519 signature (a signed note), the
// decision line's own hash, and the RFC 6962 audit path from its leaf to
// the head's root. It uses only crypto/ed25519 and crypto/sha256 of the
// standard library (docs/decision-log.md, "Signed heads").
//
//	go run ./docs/logverify decision-log.pub proof.json
//
// Exit 0 when the proof holds, 1 when it does not, 2 on bad usage.
package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// proof is what `deskbridge log prove` prints.
type proof struct {
	Head  string   `json:"head"`
	Index int64    `json:"index"`
	Line  string   `json:"line"`
	Proof []string `json:"proof"`
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: logverify PUBLIC_KEY_FILE PROOF_FILE")
		os.Exit(2)
	}
	msg, err := check(os.Args[1], os.Args[2])
	if err != nil {
		fmt.Println("NOT proved:", err)
		os.Exit(1)
	}
	fmt.Println("OK:", msg)
}

func check(keyFile, proofFile string) (string, error) {
	vkey, err := os.ReadFile(keyFile)
	if err != nil {
		return "", err
	}
	name, keyHash, pub, err := parseVerifierKey(strings.TrimSpace(string(vkey)))
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(proofFile)
	if err != nil {
		return "", err
	}
	var p proof
	if err := json.Unmarshal(b, &p); err != nil {
		return "", err
	}
	size, root, err := openHead(p.Head, name, keyHash, pub)
	if err != nil {
		return "", err
	}
	leaf, err := leafOf(p.Line)
	if err != nil {
		return "", err
	}
	if err := checkInclusion(p.Index, size, leaf, p.Proof, root); err != nil {
		return "", err
	}
	return fmt.Sprintf("line %d is in the head of size %d signed by %s (key id %08x)", p.Index+1, size, name, keyHash), nil
}

// parseVerifierKey reads a signed-note verifier key,
// "name+hash+base64(0x01 || 32-byte Ed25519 public key)", and checks that
// its hash is the first 4 bytes of SHA-256(name || "\n" || 0x01 || key).
func parseVerifierKey(vkey string) (string, uint32, ed25519.PublicKey, error) {
	parts := strings.SplitN(vkey, "+", 3) // the base64 key may hold "+"
	if len(parts) != 3 {
		return "", 0, nil, errors.New("not a verifier key (name+hash+key)")
	}
	h, err := strconv.ParseUint(parts[1], 16, 32)
	key, err2 := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || err2 != nil || len(key) != 1+ed25519.PublicKeySize || key[0] != 1 {
		return "", 0, nil, errors.New("not an Ed25519 verifier key")
	}
	sum := sha256.Sum256(append([]byte(parts[0]+"\n"), key...))
	if binary.BigEndian.Uint32(sum[:4]) != uint32(h) {
		return "", 0, nil, errors.New("the key's hash does not match the key")
	}
	return parts[0], uint32(h), ed25519.PublicKey(key[1:]), nil
}

// openHead checks a signed note's signature by the key and reads the
// tree size and root hash from its text ("origin\nsize\nroot\n").
func openHead(note, name string, keyHash uint32, pub ed25519.PublicKey) (int64, []byte, error) {
	text, sigs, ok := strings.Cut(note, "\n\n")
	if !ok {
		return 0, nil, errors.New("the head is not a signed note")
	}
	text += "\n"
	verified := false
	for _, line := range strings.Split(strings.TrimSuffix(sigs, "\n"), "\n") {
		rest, ok := strings.CutPrefix(line, "— "+name+" ")
		if !ok {
			continue
		}
		sig, err := base64.StdEncoding.DecodeString(rest)
		if err != nil || len(sig) != 4+ed25519.SignatureSize || binary.BigEndian.Uint32(sig[:4]) != keyHash {
			continue
		}
		if ed25519.Verify(pub, []byte(text), sig[4:]) {
			verified = true
		}
	}
	if !verified {
		return 0, nil, errors.New("the head carries no valid signature by the key")
	}
	lines := strings.Split(text, "\n")
	if len(lines) < 4 || lines[0] != "deskbridge decision log" {
		return 0, nil, errors.New("not a signed head of a DeskBridge decision log")
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	root, err2 := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || err2 != nil || len(root) != sha256.Size {
		return 0, nil, errors.New("bad tree size or root hash")
	}
	return size, root, nil
}

// leafOf checks a log line's hash (SHA-256 of the line without its hash
// member: the last 75 bytes cut, "}" appended) and returns its leaf hash,
// SHA-256(0x00 || the 32 bytes of that hash).
func leafOf(line string) ([]byte, error) {
	const trailer = len(`,"hash":"`) + 64 + len(`"}`)
	if len(line) < trailer+2 || !strings.HasPrefix(line[len(line)-trailer:], `,"hash":"`) {
		return nil, errors.New("not a decision-log line")
	}
	stated, err := hex.DecodeString(line[len(line)-trailer+9 : len(line)-2])
	if err != nil {
		return nil, err
	}
	body := sha256.Sum256([]byte(line[:len(line)-trailer] + "}"))
	if !bytes.Equal(body[:], stated) {
		return nil, errors.New("the line's hash is not the hash of its body: the line was changed")
	}
	leaf := sha256.Sum256(append([]byte{0}, stated...))
	return leaf[:], nil
}

// checkInclusion verifies an RFC 9162 (2.1.3.2) inclusion proof of leaf
// index in a tree of size leaves with root.
func checkInclusion(index, size int64, leaf []byte, path []string, root []byte) error {
	if index < 0 || index >= size {
		return errors.New("the index is not in the tree")
	}
	fn, sn, r := index, size-1, leaf
	for _, s := range path {
		p, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(p) != sha256.Size || sn == 0 {
			return errors.New("bad audit path")
		}
		if fn&1 == 1 || fn == sn {
			r = node(p, r)
			for fn&1 == 0 && fn != 0 {
				fn, sn = fn>>1, sn>>1
			}
		} else {
			r = node(r, p)
		}
		fn, sn = fn>>1, sn>>1
	}
	if sn != 0 || !bytes.Equal(r, root) {
		return errors.New("the audit path does not lead to the signed root")
	}
	return nil
}

// node is an interior node's hash: SHA-256(0x01 || left || right).
func node(left, right []byte) []byte {
	sum := sha256.Sum256(append(append([]byte{1}, left...), right...))
	return sum[:]
}
