package replay_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/deskbridge/deskbridge/decisionlog"
	"github.com/deskbridge/deskbridge/decisionlog/replay"
)

// TestReplayOfAnOldFormatLog: a log written in whole lines by the host
// before the compact form, with its policy store, replays with every
// decision the same.
func TestReplayOfAnOldFormatLog(t *testing.T) {
	dir := filepath.Join("..", "testdata", "v1log")
	rep, err := replay.Run(context.Background(), decisionlog.Read(filepath.Join(dir, "decisions.jsonl")),
		replay.Options{Store: filepath.Join(dir, "policies")})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != 4 || rep.Same != rep.Total || !rep.OK() {
		var out bytes.Buffer
		rep.WriteText(&out)
		t.Fatalf("replay of the old-format log:\n%s", out.String())
	}
}
