package fleet

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"

	"github.com/deskbridge/deskbridge/decisionlog"
)

// Cursor is the last event of the local log that the collector
// acknowledged, by sequence number and hash.
type Cursor struct {
	Seq  uint64 `json:"seq"`
	Hash string `json:"hash"`
}

// Ship uploads every event of the local decision log after the cursor, in
// batches, with OPA's decision-log protocol: each batch is a gzipped JSON
// array of events POSTed to the decision_logs resource. The cursor moves
// past a batch only once the collector answered 2xx, so a collector that
// is down loses nothing: the next Ship starts from the same event. It
// returns the number of events acknowledged.
//
// When the cursor's event is no longer in the log (the log was replaced,
// or rotated away), every event in the log is shipped. Then each new
// signed head of the log is sent to the collector, a witness (shipHeads).
func (f *Fleet) Ship(ctx context.Context) (int, error) {
	path := f.cfg.LogPath()
	cur, err := f.cursor()
	if err != nil {
		return 0, err
	}
	found, err := holds(path, cur)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil // nothing decided yet
	}
	if err != nil {
		return 0, err
	}
	s := &shipper{f: f, ctx: ctx, limit: int(f.cfg.Fleet.DecisionLogs.Reporting.UploadSizeLimitBytes)}
	skipping := found
	for ev, err := range decisionlog.Read(path) {
		if err != nil {
			f.logf("decision logs: skipping a line that cannot be shipped: %v", err)
			continue
		}
		if skipping {
			skipping = !(ev.Seq == cur.Seq && ev.Hash == cur.Hash)
			continue
		}
		if ev.Phase == decisionlog.PhaseContext || ev.Phase == decisionlog.PhaseNote {
			continue // Read has put what a context says into the events that name it; a note is the writer's
		}
		if err := s.add(ev); err != nil {
			return s.shipped, err
		}
	}
	if err := s.flush(); err != nil {
		return s.shipped, err
	}
	return s.shipped, f.shipHeads(ctx, path)
}

// holds reports whether the log at path has the cursor's event. A zero
// cursor is never held: everything is to ship.
func holds(path string, cur Cursor) (bool, error) {
	if cur.Hash == "" {
		if _, _, err := decisionlog.Files(path); err != nil {
			return false, err
		}
		return false, nil
	}
	for ev, err := range decisionlog.Read(path) {
		if errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		if err == nil && ev.Seq == cur.Seq && ev.Hash == cur.Hash {
			return true, nil
		}
	}
	return false, nil
}

// shipper gathers events into batches under the size limit and uploads
// each full batch.
type shipper struct {
	f       *Fleet
	ctx     context.Context
	limit   int
	batch   [][]byte
	size    int
	last    Cursor
	shipped int
}

func (s *shipper) add(ev decisionlog.Event) error {
	b, err := json.Marshal(ev)
	if err != nil {
		return err
	}
	if len(s.batch) > 0 && s.size+len(b)+1 > s.limit {
		if err := s.flush(); err != nil {
			return err
		}
	}
	s.batch = append(s.batch, b)
	s.size += len(b) + 1
	s.last = Cursor{Seq: ev.Seq, Hash: ev.Hash}
	return nil
}

// flush uploads the batch and, once acknowledged, saves the cursor.
func (s *shipper) flush() error {
	if len(s.batch) == 0 {
		return nil
	}
	body, err := gzipArray(s.batch)
	if err != nil {
		return err
	}
	if err := s.f.upload(s.ctx, body); err != nil {
		return err
	}
	if err := s.f.saveCursor(s.last); err != nil {
		return fmt.Errorf("saving the cursor: %w", err)
	}
	s.shipped += len(s.batch)
	s.batch, s.size = s.batch[:0], 0
	return nil
}

// gzipArray is the gzip of the JSON array of the encoded events.
func gzipArray(events [][]byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte{'['})
	for i, e := range events {
		if i > 0 {
			zw.Write([]byte{','})
		}
		zw.Write(e)
	}
	zw.Write([]byte{']'})
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// upload POSTs one gzipped batch, as OPA's decision-log plugin does.
func (f *Fleet) upload(ctx context.Context, body []byte) error {
	status, _, err := f.post(ctx, f.cfg.Fleet.DecisionLogs.Resource, body, "gzip")
	if err != nil {
		return err
	}
	if status/100 != 2 {
		return fmt.Errorf("collector answered %d %s", status, http.StatusText(status))
	}
	return nil
}

// post POSTs a JSON body (with encoding as its Content-Encoding, "" none)
// to resource of the decision-log service and returns the answer's
// status and the first KiB of its body.
func (f *Fleet) post(ctx context.Context, resource string, body []byte, encoding string) (int, []byte, error) {
	req, err := f.request(ctx, http.MethodPost, f.cfg.Fleet.DecisionLogs.Service, resource, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16)) // the rest, so the connection is reused
	return resp.StatusCode, msg, nil
}

func (f *Fleet) cursorPath() string { return filepath.Join(f.state, "decision-log.cursor") }

// cursor reads the saved cursor; none saved is the zero cursor.
func (f *Fleet) cursor() (Cursor, error) {
	b, err := os.ReadFile(f.cursorPath())
	if errors.Is(err, fs.ErrNotExist) {
		return Cursor{}, nil
	}
	if err != nil {
		return Cursor{}, err
	}
	var c Cursor
	if err := json.Unmarshal(b, &c); err != nil {
		return Cursor{}, fmt.Errorf("fleet cursor %s: %w", f.cursorPath(), err)
	}
	return c, nil
}

func (f *Fleet) saveCursor(c Cursor) error {
	b, err := json.Marshal(c)
	if err != nil {
		return err
	}
	return writeFileAtomic(f.cursorPath(), b)
}
