package proc

import (
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	MaybeRunTrampoline()
	os.Exit(m.Run())
}
