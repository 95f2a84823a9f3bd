package engine_test

import "github.com/deskbridge/deskbridge/engine"

// logEventMaps are the events of a decision log as Read gives them
// (engine's logEventMaps).
var logEventMaps = engine.LogEventMaps
