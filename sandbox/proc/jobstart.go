package proc

import (
	"errors"
	"fmt"
)

// jobStarter is the platform's steps for starting a child inside a job
// object (Windows); startInJob calls them in the one safe order.
type jobStarter interface {
	startSuspended() error // the child exists and runs nothing yet
	assign() error         // create the job and put the child in it
	resume() error         // let the child run
	kill() error           // end the child, through its job once assigned
}

// startInJob starts a child suspended, puts it in its job and only then
// resumes it, so nothing the child spawns can be outside the job. When a
// step fails the child is killed and never resumed: a child that is not
// in its job never runs an instruction of its own. A failed start is
// followed by a kill too, in case it left a child (one not suspended).
func startInJob(s jobStarter) error {
	if err := s.startSuspended(); err != nil {
		return killAfter(s, fmt.Errorf("start suspended: %w", err))
	}
	if err := s.assign(); err != nil {
		return killAfter(s, fmt.Errorf("assign to job: %w", err))
	}
	if err := s.resume(); err != nil {
		return killAfter(s, fmt.Errorf("resume: %w", err))
	}
	return nil
}

// killAfter kills the child of s after the failed step err and returns
// err, joined with the kill's error when that fails too.
func killAfter(s jobStarter, err error) error {
	if kerr := s.kill(); kerr != nil {
		return errors.Join(err, fmt.Errorf("kill: %w", kerr))
	}
	return err
}
