package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFileTextUpToOneMessage: write_file's cap is on the decoded
// bytes and the message, so any UTF-8 text one 1 MB message carries is
// written whole: 1,000,000 bytes of two-byte characters, and a text
// filling the frame to the last byte.
func TestWriteFileTextUpToOneMessage(t *testing.T) {
	cfg, ws := writeConfig(t, "")
	p := start(t, []string{"--config", cfg, origin})
	path := filepath.Join(ws, "big.txt")
	prefix := fmt.Sprintf(`{"version":1,"id":"w","action":"write_file","arguments":{"path":%q,"content":"`, path)
	const suffix = `"}}`
	fill := 1<<20 - len(prefix) - len(suffix)
	for name, content := range map[string]string{
		"1,000,000 bytes": strings.Repeat("é", 500_000),
		"a full frame":    strings.Repeat("é", fill/2) + strings.Repeat("x", fill%2),
	} {
		payload := prefix + content + suffix
		if len(payload) > 1<<20 {
			t.Fatalf("%s: the payload is %d bytes, over one message", name, len(payload))
		}
		p.send(frame([]byte(payload)))
		r := p.recv()
		if !r.Success {
			t.Fatalf("%s (%d bytes): %+v", name, len(content), r.Error)
		}
		if got, err := os.ReadFile(path); err != nil || string(got) != content {
			t.Fatalf("%s: the file holds %d bytes (%v), want %d", name, len(got), err, len(content))
		}
	}
}
