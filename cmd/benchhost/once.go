package main

import (
	"fmt"
	"os"
)

// once is `benchhost -once BIN ARGS...`: it starts one native messaging
// host as Chrome starts it for a one-shot message, sends get_status,
// waits for a successful answer, closes the port and waits for the exit.
// Timed from outside as a whole process (with the same run of an echo
// host as the floor), it is the spawn → first get_status figure with
// nothing of this program's own measuring in it.
func once(argv []string) error {
	if len(argv) == 0 {
		return fmt.Errorf("-once needs the host's command line")
	}
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	p, err := spawn(nativeFraming{}, argv, dir)
	if err != nil {
		return err
	}
	resp, err := p.call(deskbridge{}.first())
	if err == nil {
		err = deskbridge{}.ok(resp)
	}
	if cerr := p.close(); err == nil {
		err = cerr
	}
	return err
}
