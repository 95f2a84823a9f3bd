package proc

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	MaybeRunTrampoline()
	maybeRunSelfLimitProbe()
	maybeSelfChildProbe()
	maybeInheritedHostProbe()
	if dir := os.Getenv(confineProbeEnv); dir != "" {
		os.Exit(confineProbe(dir))
	}
	os.Exit(m.Run())
}
