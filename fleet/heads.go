package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// HeadUpload is the body of a signed head sent to the collector: the
// signed note (docs/decision-log.md, "Signed heads") and the consistency
// proof (RFC 6962, base64 hashes) from the last head the collector
// acknowledged, empty for the first. A collector acting as a witness
// checks it with decisionlog.CheckHeadExtends and answers 409 Conflict
// to a head that does not extend the one it holds.
type HeadUpload struct {
	Head  string   `json:"head"`
	Proof []string `json:"proof"`
}

// HeadsResource is the resource signed heads are POSTed to, under the
// decision-log resource.
func HeadsResource(logResource string) string {
	return strings.TrimSuffix(logResource, "/") + "/heads"
}

// ErrHeadRefused is returned when the collector refused a signed head:
// the log does not extend the last head the collector holds.
var ErrHeadRefused = errors.New("the collector refused the signed head")

// shipHeads sends each signed head of the log written since the last one
// the collector acknowledged (or, when that one is no longer in FILE.heads,
// the latest), each with its consistency proof from the acknowledged one.
// A log without signed heads or a public key beside it sends none.
func (f *Fleet) shipHeads(ctx context.Context, path string) error {
	notes, err := decisionlog.SignedHeadNotes(path)
	if err != nil || len(notes) == 0 {
		return err
	}
	keys, err := decisionlog.LoadPublicKey(decisionlog.PublicKeyPath(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	held, err := f.heldHead()
	if err != nil {
		return err
	}
	for _, n := range pendingHeads(notes, held) {
		h, err := decisionlog.OpenHead([]byte(n), keys)
		if err != nil {
			f.logf("decision logs: a signed head is not sent: %v", err)
			continue
		}
		up := HeadUpload{Head: n}
		if held != "" {
			if o, err := decisionlog.OpenHead([]byte(held), keys); err == nil {
				if up.Proof, err = decisionlog.ProveHeadConsistency(path, keys, o.Size, h.Size); err != nil {
					f.logf("decision logs: no consistency proof from the head the collector holds (size %d) to size %d: %v", o.Size, h.Size, err)
				}
			}
		}
		err = f.uploadHead(ctx, up)
		if errors.Is(err, errNoWitness) {
			f.logf("decision logs: the collector takes no signed heads (%v); nothing witnesses this log's heads", err)
			return nil
		}
		if err != nil {
			return fmt.Errorf("signed head of size %d: %w", h.Size, err)
		}
		if err := writeFileAtomic(f.headCursorPath(), []byte(n)); err != nil {
			return fmt.Errorf("saving the head cursor: %w", err)
		}
		held = n
	}
	return nil
}

// pendingHeads are the notes after held, or the latest when held is not
// among them (none held yet, or the heads file was replaced).
func pendingHeads(notes []string, held string) []string {
	for i := len(notes) - 1; i >= 0; i-- {
		if notes[i] == held {
			return notes[i+1:]
		}
	}
	return notes[len(notes)-1:]
}

// errNoWitness is a collector that has no heads resource (404, 405): an
// OPA collector that is no witness. Its events were delivered; the heads
// are not, and the fleet's log says so.
var errNoWitness = errors.New("no heads resource")

// uploadHead POSTs one signed head and its proof.
func (f *Fleet) uploadHead(ctx context.Context, up HeadUpload) error {
	body, err := json.Marshal(up)
	if err != nil {
		return err
	}
	status, msg, err := f.post(ctx, HeadsResource(f.cfg.Fleet.DecisionLogs.Resource), body, "")
	if err != nil {
		return err
	}
	switch {
	case status == http.StatusConflict:
		return fmt.Errorf("%w: %s", ErrHeadRefused, strings.TrimSpace(string(msg)))
	case status == http.StatusNotFound || status == http.StatusMethodNotAllowed:
		return fmt.Errorf("%w: %d %s", errNoWitness, status, http.StatusText(status))
	case status/100 != 2:
		return fmt.Errorf("collector answered %d %s", status, http.StatusText(status))
	}
	return nil
}

func (f *Fleet) headCursorPath() string { return filepath.Join(f.state, "decision-log.head") }

// heldHead is the last signed head the collector acknowledged, "" none.
func (f *Fleet) heldHead() (string, error) {
	b, err := os.ReadFile(f.headCursorPath())
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return string(b), err
}
