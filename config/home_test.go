package config

import (
	"testing"

	"github.com/deskbridge/deskbridge/internal/testhome"
)

// TestMain runs the tests in a home of their own (internal/testhome).
func TestMain(m *testing.M) { testhome.Main(m) }
