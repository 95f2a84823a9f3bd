# Per-action limits: a timeout and a size cap for each action. The
# configuration's limits.<action> overrides the defaults member by member.
package deskbridge.limits

import rego.v1

# The defaults are the actions' cards (data.deskbridge.actions, the host's
# data made from protocol/actions.go): timeout_ms (10000 unless the card
# says otherwise) and every limit the card gives a default. An action gets
# only the limits it enforces (its card's limits, and timeout_ms): the
# host refuses a request whose decision sets any other, since it would be
# ignored. (An action without a card has the default timeout alone.)
limits := object.union(
	object.get(object.get(data.deskbridge.actions, input.request.action, {}), "limits", {"timeout_ms": 10000}),
	object.get(data.config, ["limits", input.request.action], {}),
)
