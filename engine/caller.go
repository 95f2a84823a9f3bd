package engine

import (
	"io"

	"github.com/deskbridge/deskbridge/engine/redact"
	"github.com/deskbridge/deskbridge/sandbox"
)

// Caller returns a host that serves origin on h's channel with h's
// policy, decision log and path resolver, and root handles of its own,
// which Release closes, writing its own log lines to hostLog; h stays
// open. A warm process (`deskbridge
// warm-serve`) starts one host and makes a Caller for each connection, so
// that a connection sees its workspaces as a newly started host would.
func (h *Host) Caller(origin string, hostLog io.Writer) *Host {
	c := *h
	c.hostLog = redact.Writer(hostLog)
	env := *h.env
	env.Roots = &sandbox.Roots{}
	env.CheckContent = c.checkContent
	c.env = &env
	c.origin = origin
	c.originOK = originAllowed(h.channel, origin, h.env.Config.AllowedOrigins)
	return &c
}

// Release closes the root handles of a host made by Caller.
func (h *Host) Release() { h.env.Roots.Close() }

// Hashes are the hashes of the configuration and the policy set h
// started from (get_status's config.hash and policy.hash).
func (h *Host) Hashes() (config, policy string) {
	return h.env.Info.ConfigHash, h.env.Info.PolicyHash
}
