package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkHandleReadFile measures the whole pipeline on a 1 KiB
// read_file, with the decision log on and off; the difference is the cost
// of logging (target: at most 15%).
func BenchmarkHandleReadFile(b *testing.B) {
	for _, logged := range []bool{true, false} {
		b.Run(map[bool]string{true: "log=on", false: "log=off"}[logged], func(b *testing.B) {
			h, ws, _ := newLogHost(b, "")
			if !logged {
				h.log.Close()
				h.log = nil
			}
			name := filepath.Join(ws, "small.txt")
			os.WriteFile(name, []byte(strings.Repeat("x", 1024)), 0o600)
			req := []byte(`{"version":1,"id":"b","action":"read_file","arguments":{"path":` + jsonString(name) + `}}`)
			for b.Loop() {
				if resp := h.Handle(context.Background(), req); !resp.Success {
					b.Fatalf("%+v", resp.Error)
				}
			}
		})
	}
}
