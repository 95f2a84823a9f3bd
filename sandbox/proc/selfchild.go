package proc

import (
	"encoding/json"
	"fmt"
	"os"
)

// MaybeRunChild starts a child of the host's own binary (the document
// converter, the image worker), one started with marker as argv[1] and
// its options, JSON for an O, as argv[2]. In that process it decodes the
// options, lowers the process's own limits to what limits gives for them
// (LimitSelf) before anything else runs, and exits with run's code. In
// any other process it returns true at once: that one may start such
// children, as its main calls MaybeRunChild (a test binary that does not
// would not understand the marker). name is the child's name in its
// messages.
func MaybeRunChild[O any](marker, name string, limits func(O) (memory, cpu int64), run func(O) int) bool {
	if len(os.Args) < 3 || os.Args[1] != marker {
		return true
	}
	var o O
	if err := json.Unmarshal([]byte(os.Args[2]), &o); err != nil {
		fmt.Fprintf(os.Stderr, "deskbridge %s: bad options\n", name)
		os.Exit(2)
	}
	if err := LimitSelf(limits(o)); err != nil {
		fmt.Fprintf(os.Stderr, "deskbridge %s: limits: %v\n", name, err)
		os.Exit(2)
	}
	os.Exit(run(o))
	return false
}
