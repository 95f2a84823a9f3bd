package main

import (
	"fmt"
	"testing"
	"time"
)

// TestSlowRequestDoesNotHoldUpTheNext: a request sent while a slow one is
// being served (here a command that sleeps) is read and answered at once,
// not after the slow one: the worker serving the slow request hands the
// reading on (engine.port.serve lends it for lendAfter at most).
func TestSlowRequestDoesNotHoldUpTheNext(t *testing.T) {
	cfg, ws := writeConfig(t, `,"commands":{"allow":["sleep"]}`)
	p := start(t, []string{"--config", cfg, origin})
	p.send(frame([]byte(fmt.Sprintf(`{"version":1,"id":"slow","action":"run_command","arguments":{"argv":["sleep","3"],"cwd":%q}}`, ws))))
	time.Sleep(300 * time.Millisecond) // the slow request is being served, nothing else is buffered
	p.send(frame([]byte(`{"version":1,"id":"quick","action":"get_status","arguments":{}}`)))
	first := p.recv()
	if first.ID != "quick" || !first.Success {
		t.Fatalf("first answer %+v, want the quick get_status before the sleeping command", first)
	}
	if second := p.recv(); second.ID != "slow" || !second.Success {
		t.Fatalf("second answer %+v, want the command's", second)
	}
	if code := p.closeAndWait(); code != 0 {
		t.Errorf("exit %d, want 0", code)
	}
}
