package desktop

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"
)

// OwnerMarker is the first argument that makes the host's binary the
// detached clipboard owner (MaybeRunOwner) instead of a host.
const OwnerMarker = "__deskbridge_clipboard_owner__"

// OwnerTTL bounds how long a clipboard owner serves its content: after
// it, the owner gives the selection up and exits, so that no process the
// host started outlives it unbounded.
const OwnerTTL = 8 * time.Hour

// maxOwned caps what an owner reads from the host: every item together.
const maxOwned = 64 << 20

// targets are the selection targets of each format, preferred first.
var targets = map[Format][]string{
	Text:  {"UTF8_STRING", "text/plain;charset=utf-8", "STRING"},
	HTML:  {"text/html"},
	Image: {"image/png"},
}

// ownerHeader is the first line the host writes to its owner; the items'
// bytes follow, in order.
type ownerHeader struct {
	Display string `json:"display"`
	TTLms   int64  `json:"ttl_ms"`
	// Register is the folder of the register of detached processes
	// (procreg.Dir) the owner records itself in while it runs; "" for
	// none.
	Register string      `json:"register,omitempty"`
	Items    []ownerItem `json:"items"`
}

type ownerItem struct {
	Format Format `json:"format"`
	Length int    `json:"length"`
}

// encodeOwner writes the header and the items for an owner.
func encodeOwner(w io.Writer, display, register string, ttl time.Duration, items []Item) error {
	h := ownerHeader{Display: display, TTLms: ttl.Milliseconds(), Register: register}
	for _, it := range items {
		h.Items = append(h.Items, ownerItem{Format: it.Format, Length: len(it.Data)})
	}
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.Write(append(b, '\n'))
	for _, it := range items {
		bw.Write(it.Data)
	}
	return bw.Flush()
}

// decodeOwner reads what encodeOwner wrote, refusing more than maxOwned
// bytes, an unknown format or a format twice.
func decodeOwner(r io.Reader) (ownerHeader, []Item, error) {
	br := bufio.NewReader(io.LimitReader(r, maxOwned+64<<10))
	line, err := br.ReadBytes('\n')
	if err != nil {
		return ownerHeader{}, nil, fmt.Errorf("desktop: owner header: %w", err)
	}
	var h ownerHeader
	if err := json.Unmarshal(line, &h); err != nil {
		return h, nil, fmt.Errorf("desktop: owner header: %w", err)
	}
	total, seen := 0, map[Format]bool{}
	var items []Item
	for _, it := range h.Items {
		if _, known := targets[it.Format]; !known || seen[it.Format] || it.Length < 0 || it.Length > maxOwned-total {
			return h, nil, errors.New("desktop: owner header: bad item")
		}
		seen[it.Format] = true
		total += it.Length
		data := make([]byte, it.Length)
		if _, err := io.ReadFull(br, data); err != nil {
			return h, nil, fmt.Errorf("desktop: owner content: %w", err)
		}
		items = append(items, Item{Format: it.Format, Data: data})
	}
	if len(items) == 0 {
		return h, nil, errors.New("desktop: owner header: no items")
	}
	return h, items, nil
}
