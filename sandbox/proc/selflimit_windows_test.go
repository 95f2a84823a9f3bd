package proc

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
)

// selfLimitProbeEnv makes the test binary a probe child: it limits
// itself, prints the limits its job reports and, when the value is
// "hog", then commits far more memory than the limit allows.
const selfLimitProbeEnv = "DESKBRIDGE_TEST_SELFLIMIT_PROBE"

// maybeRunSelfLimitProbe runs the probe when the test binary was started
// as one.
func maybeRunSelfLimitProbe() {
	mode := os.Getenv(selfLimitProbeEnv)
	if mode == "" {
		return
	}
	if err := LimitSelf(64<<20, 7); err != nil {
		fmt.Println("limit:", err)
		os.Exit(3)
	}
	memory, cpu, err := SelfLimits()
	if err != nil {
		fmt.Println("query:", err)
		os.Exit(3)
	}
	fmt.Printf("memory=%d cpu=%d\n", memory, cpu)
	if mode == "hog" {
		hog := make([][]byte, 0, 64)
		for i := 0; i < 64; i++ { // 512 MiB, eight times the limit
			b := make([]byte, 8<<20)
			for j := range b {
				b[j] = 1
			}
			hog = append(hog, b)
		}
		fmt.Println("committed", len(hog)*8, "MiB")
	}
	os.Exit(0)
}

// probe runs the test binary as a self-limit probe in mode.
func probe(t *testing.T, mode string) (string, error) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), selfLimitProbeEnv+"="+mode)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestLimitSelfSetsTheJobsLimits: a child that limits itself is in a
// job with the memory and CPU limits asked for.
func TestLimitSelfSetsTheJobsLimits(t *testing.T) {
	out, err := probe(t, "report")
	if err != nil {
		t.Fatalf("probe: %v\n%s", err, out)
	}
	wine.Skip(t, wine.NoJobLimits) // the job was made and joined: no error above
	if want := fmt.Sprintf("memory=%d cpu=7", 64<<20); !strings.Contains(out, want) {
		t.Fatalf("probe reported %q, want %q", out, want)
	}
}

// TestLimitSelfStopsAHog: a child past its job's memory limit cannot
// commit the memory; it dies rather than finishing.
func TestLimitSelfStopsAHog(t *testing.T) {
	wine.Skip(t, wine.NoJobLimits)
	out, err := probe(t, "hog")
	if err == nil || strings.Contains(out, "committed") {
		t.Fatalf("a child limited to 64 MiB committed 512 MiB: %v\n%s", err, out)
	}
}
