package errmap

import (
	"errors"
	"fmt"
	"testing"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/proc"
	"github.com/deskbridge/deskbridge/sandbox/runstore"
)

func TestRun(t *testing.T) {
	for _, c := range []struct {
		kind error
		code protocol.Code
	}{
		{runstore.ErrNotFound, protocol.ActionNotAllowed},
		{runstore.ErrEnded, protocol.ActionNotAllowed},
		{runstore.ErrOtherOrigin, protocol.ActionNotAllowed},
		{runstore.ErrRoundLimit, protocol.ActionNotAllowed},
		{errors.New("disk"), protocol.ExecutionFailed},
	} {
		if pe := Run(fmt.Errorf("runstore: %w", c.kind)); pe.Code != c.code || pe.Message == "" {
			t.Errorf("Run(%v) = %s %q, want %s", c.kind, pe.Code, pe.Message, c.code)
		}
	}
}

func TestGit(t *testing.T) {
	r := &proc.GitRefusal{Key: "core.fsmonitor", Reason: "runs a program"}
	want := "git is refused in this repository: its configuration sets core.fsmonitor, which runs a program. Remove that setting from the repository's configuration to use git here."
	if pe := Git(r); pe.Code != protocol.CommandNotAllowed || pe.Message != want {
		t.Errorf("Git(refusal) = %s %q", pe.Code, pe.Message)
	}
	if pe := Git(errors.New("unreadable")); pe.Code != protocol.CommandNotAllowed {
		t.Errorf("Git(other) = %s", pe.Code)
	}
	if Git(nil) != nil {
		t.Error("Git(nil) is not nil")
	}
}
