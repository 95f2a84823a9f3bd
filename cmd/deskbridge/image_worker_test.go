//go:build linux || darwin

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/deskbridge/deskbridge/internal/testkit/imagetest"
)

// TestImageBombDoesNotStarveOtherPorts: in one warm process, a
// convert_image that works past its timeout_ms of 3 s (a 10000×10000
// JPEG of 1.2 MB, within every pre-decode bound, which takes tens of
// seconds to decode and encode) holds one image worker; meanwhile an
// unrelated compress_image on another port is served within its own
// timeout_ms of 8 s (with the pixels decoded in the host, it waited for
// the one image slot until the decode ended and timed out), and the long
// one is answered when its time runs out, its worker killed, with nothing
// written; the same port is then served again. The scan bomb of the
// attack and a 16-bit 10000×10000 PNG of zeros are refused before
// decoding.
func TestImageBombDoesNotStarveOtherPorts(t *testing.T) {
	cfg, ws := writeConfig(t, `,"limits":{"convert_image":{"timeout_ms":3000},"compress_image":{"timeout_ms":8000}}`)
	w := newWarmEnv(t, "1m")
	waitWarmStatus(t, w, cfg)
	put := func(name string, b []byte) string {
		p := filepath.Join(ws, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	slow := put("slow.jpg", imagetest.FlatJPEG(10000, 10000))
	small := put("small.png", imagetest.PNG(imagetest.Photo(64, 64)))
	bomb := put("bomb.jpg", imagetest.ScanBombJPEG(10000, 10000, 3, 10))
	png16 := put("zeros16.png", imagetest.ZeroPNG16(10000, 10000))

	bin, err := warmHostPath()
	if err != nil {
		t.Fatal(err)
	}
	portA := startProgram(t, bin, []string{"--config", cfg, origin}, w.env()...)
	args, _ := json.Marshal(map[string]any{"path": slow, "destination": filepath.Join(ws, "slow.png"), "format": "png"})
	started := time.Now()
	portA.send(frame([]byte(`{"version":1,"id":"slow","action":"convert_image","arguments":` + string(args) + `}`)))
	answerA := make(chan response, 1)
	go func() { answerA <- portA.recv() }()

	r := callWarm(t, w, cfg, "compress_image", map[string]any{"path": small, "destination": filepath.Join(ws, "small-c.png")})
	if !r.Success {
		t.Fatalf("the unrelated request: %s %+v", r.code(), r.Error)
	}
	a := <-answerA
	t.Logf("the long request answered after %v (timeout_ms 3000)", time.Since(started))
	if a.code() != "IMAGE_PROCESSING_FAILED" || !strings.Contains(a.Error.Message, "timeout") {
		t.Fatalf("the long request: %s %+v", a.code(), a.Error)
	}
	if _, err := os.Stat(filepath.Join(ws, "slow.png")); !os.IsNotExist(err) {
		t.Fatalf("the timed-out request wrote its result: %v", err)
	}
	again := portA.request("again", "convert_image", mustJSON(t, map[string]any{"path": small, "destination": filepath.Join(ws, "small.gif"), "format": "gif"}))
	if !again.Success {
		t.Fatalf("the port after the timeout: %s %+v", again.code(), again.Error)
	}
	for _, p := range []string{bomb, png16} {
		b := portA.request("bomb", "resize_image", mustJSON(t, map[string]any{"path": p, "width": 100}))
		if b.code() != "IMAGE_PROCESSING_FAILED" || !strings.Contains(b.Error.Message, "it was not decoded") {
			t.Fatalf("%s: %s %+v", filepath.Base(p), b.code(), b.Error)
		}
	}
	portA.in.Close()
	if err := portA.cmd.Wait(); err != nil {
		t.Fatalf("deskbridge-host: %v\nstderr: %s", err, portA.stderr)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
