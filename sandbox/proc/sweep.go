package proc

import (
	"crypto/rand"
	"encoding/hex"
)

// RunVar is the variable every child gets with a value unique to its run.
// Descendants inherit it, so once the run ends, a process that left the
// child's process group (setsid, a detached spawn) is still found by it
// and killed (on Linux, where /proc shows each process's environment). A
// program that deliberately clears its environment can still escape.
const RunVar = "DESKBRIDGE_RUN"

func newRunToken() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
