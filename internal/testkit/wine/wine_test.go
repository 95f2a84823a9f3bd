package wine

import (
	"os"
	"testing"
)

// TestRunning checks the detection against what the test runner says:
// scripts/wine/test.sh sets DESKBRIDGE_EXPECT_WINE=1, so that a detection
// that stopped working (and with it every Wine skip) fails here instead of
// turning skips into failures or, worse, hiding them.
func TestRunning(t *testing.T) {
	want := os.Getenv("DESKBRIDGE_EXPECT_WINE") == "1"
	if got := Running(); got != want {
		t.Fatalf("Running() = %v, want %v (DESKBRIDGE_EXPECT_WINE=%q)", got, want, os.Getenv("DESKBRIDGE_EXPECT_WINE"))
	}
}
