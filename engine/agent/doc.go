// Package agent holds the agent skill's actions (web_agent_start,
// web_agent_context, web_agent_end): a run's facts (input.run) from the
// run store, and the read-only workspace view (sandbox/wsview) each
// context request reads through, registered with package action in init.
package agent
