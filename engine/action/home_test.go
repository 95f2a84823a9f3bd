package action

import (
	"testing"

	"github.com/deskbridge/deskbridge/internal/testkit/testhome"
)

// TestMain runs the tests in a home of their own (internal/testkit/testhome).
func TestMain(m *testing.M) { testhome.Main(m) }
