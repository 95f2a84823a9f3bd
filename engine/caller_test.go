package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// A warm process serves ports of several callers at once from one host:
// each Caller answers as a host started for its own origin (the origin
// check is the caller's, not the first host's), and releasing one leaves
// the others, and the host, serving.
func TestCallersServeTheirOwnOrigin(t *testing.T) {
	h, ws, _ := newLogHost(t, "")
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello"), 0o600); err != nil {
		t.Fatal(err)
	}
	req := []byte(fmt.Sprintf(`{"version":1,"id":"t","action":"read_file","arguments":{"path":%q}}`, filepath.Join(ws, "a.txt")))
	callers := map[string]bool{testOrigin: true, "chrome-extension://pppppppppppppppppppppppppppppppp/": false, "": false}
	var wg sync.WaitGroup
	for origin, allowed := range callers {
		c := h.Caller(origin, os.Stderr)
		wg.Go(func() {
			defer c.Release()
			for range 20 {
				resp := c.Handle(context.Background(), req)
				if resp.Success != allowed {
					t.Errorf("origin %q: success %v (%+v); want %v", origin, resp.Success, resp.Error, allowed)
					return
				}
			}
		})
	}
	wg.Wait()
	if ok, code := call(t, h, "read_file", fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "a.txt"))); !ok {
		t.Fatalf("the host after its callers were released: %s", code)
	}
}
