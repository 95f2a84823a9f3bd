//go:build e2e && linux

package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkOneShot measures one chrome.runtime.sendNativeMessage get_status
// round trip (the browser starts a fresh host process each time) from the
// service worker; the loop runs inside the browser, so the DevTools
// overhead is paid once per b.N.
func BenchmarkOneShot(b *testing.B) {
	benchHosts(b, func(b *testing.B, br *browser, _ host) {
		var ms float64
		br.mustEval(fmt.Sprintf(`return await deskbridge.benchOneShot(%d);`, b.N), &ms)
		b.ReportMetric(ms/float64(b.N), "ms/roundtrip")
	})
}

// BenchmarkPort measures get_status requests over one connectNative port,
// 32 in flight.
func BenchmarkPort(b *testing.B) {
	benchHosts(b, func(b *testing.B, br *browser, _ host) {
		benchPort(b, br, "get_status", map[string]any{})
	})
}

// BenchmarkPortRead1KiB measures read_file of a 1 KiB text file over one
// port, 32 in flight. The echo host only reflects the request.
func BenchmarkPortRead1KiB(b *testing.B) {
	benchHosts(b, func(b *testing.B, br *browser, h host) {
		dir := h.workspace
		if dir == "" {
			dir = b.TempDir()
		}
		path := filepath.Join(dir, "1k.txt")
		if err := os.WriteFile(path, []byte(strings.Repeat("0123456789abcde\n", 64)), 0o644); err != nil {
			b.Fatal(err)
		}
		benchPort(b, br, "read_file", map[string]any{"path": path})
	})
}

func benchPort(b *testing.B, br *browser, action string, args map[string]any) {
	a, _ := json.Marshal(args)
	var ms float64
	br.mustEval(fmt.Sprintf(`return await deskbridge.benchPort(%d, 32, {action: %q, args: %s});`, b.N, action, a), &ms)
	b.ReportMetric(float64(b.N)/(ms/1000), "req/s")
}

// benchHosts runs f against a browser per host; the browser starts once
// per host, outside the timed region.
func benchHosts(b *testing.B, f func(b *testing.B, br *browser, h host)) {
	hosts := []struct {
		name string
		mk   func(testing.TB) host
	}{{"echo", echoHost}, {"deskbridge", realHost}, {"deskbridge-host", warmHost}}
	for _, hc := range hosts {
		b.Run(hc.name, func(b *testing.B) {
			h := hc.mk(b)
			br := startBrowser(b, h, nil)
			br.evalTimeout = 10 * time.Minute
			if h.warm {
				waitWarmInBrowser(b, br)
			}
			b.ResetTimer()
			f(b, br, h)
		})
	}
}

// waitWarmInBrowser sends one-shot get_status messages until a warm
// process answers: the browser's environment names another one than the
// probe's (testOneShot), which the first message starts.
func waitWarmInBrowser(b *testing.B, br *browser) {
	var r response
	for range 100 {
		br.mustEval(`return await deskbridge.sendOnce("get_status", {});`, &r)
		if r.Data.Warm {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.Fatal("no warm process answered the browser")
}
