//go:build e2e && linux

package e2e

import (
	"fmt"
	"testing"
)

// BenchmarkOneShot measures one chrome.runtime.sendNativeMessage round trip
// (a fresh host process each time) from the service worker; the loop runs
// inside the browser, so the DevTools overhead is paid once per b.N.
func BenchmarkOneShot(b *testing.B) {
	benchHosts(b, func(b *testing.B, br *browser) {
		var ms float64
		br.mustEval(fmt.Sprintf(`return await deskbridge.benchOneShot(%d);`, b.N), &ms)
		b.ReportMetric(ms/float64(b.N), "ms/roundtrip")
	})
}

// BenchmarkPort measures get_status requests over one connectNative port,
// 32 in flight.
func BenchmarkPort(b *testing.B) {
	benchHosts(b, func(b *testing.B, br *browser) {
		var ms float64
		br.mustEval(fmt.Sprintf(`return await deskbridge.benchPort(%d, 32);`, b.N), &ms)
		b.ReportMetric(float64(b.N)/(ms/1000), "req/s")
	})
}

// benchHosts runs f against a browser per host; the browser starts once
// per host, outside the timed region.
func benchHosts(b *testing.B, f func(b *testing.B, br *browser)) {
	hosts := []struct {
		name string
		mk   func(testing.TB) host
	}{{"echo", echoHost}, {"deskbridge", realHost}}
	for _, h := range hosts {
		b.Run(h.name, func(b *testing.B) {
			br := startBrowser(b, h.mk(b), nil)
			b.ResetTimer()
			f(b, br)
		})
	}
}
