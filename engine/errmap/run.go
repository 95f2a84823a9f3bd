package errmap

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/deskbridge/deskbridge/protocol"
	"github.com/deskbridge/deskbridge/sandbox/proc"
	"github.com/deskbridge/deskbridge/sandbox/runstore"
)

// Run turns a run store refusal into ACTION_NOT_ALLOWED. It answers
// when the store's atomic check disagrees with the policy's input (a race
// with another host process, or a policy that does not check runs).
func Run(err error) *protocol.Error {
	var msg string
	switch {
	case errors.Is(err, runstore.ErrNotFound):
		msg = "The agent run is unknown; start a new run with web_agent_start."
	case errors.Is(err, runstore.ErrEnded):
		msg = "The agent run has ended; start a new run with web_agent_start."
	case errors.Is(err, runstore.ErrOtherOrigin):
		msg = "The agent run belongs to another extension; start a run of your own."
	case errors.Is(err, runstore.ErrRoundLimit):
		msg = "The agent run has used all its rounds; start a new run to continue."
	default:
		return protocol.Wrap(protocol.ExecutionFailed, err, "DeskBridge could not update its run store; try again.")
	}
	return &protocol.Error{Code: protocol.ActionNotAllowed, Message: msg, Err: err}
}

// Git maps an error of proc.CheckGitRepo: a *proc.GitRefusal names the
// setting that refuses git.
func Git(err error) *protocol.Error {
	if err == nil {
		return nil
	}
	var r *proc.GitRefusal
	if errors.As(err, &r) {
		return protocol.Wrap(protocol.CommandNotAllowed, err, fmt.Sprintf(
			"git is refused in this repository: its configuration %s, which %s. Remove that setting from the repository's configuration to use git here.", describeKey(r), r.Reason))
	}
	return protocol.Wrap(protocol.CommandNotAllowed, err, "git is refused: the repository's configuration could not be checked.")
}

// describeKey names the setting or file of a refusal.
func describeKey(r *proc.GitRefusal) string {
	if r.Key == "" {
		return "file " + filepath.Base(r.File)
	}
	return "sets " + r.Key
}
