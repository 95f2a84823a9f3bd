package action

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// TimeoutLimit is the limit every action enforces: the engine runs each
// allowed call under a context with that deadline.
const TimeoutLimit = "timeout_ms"

// Enforced returns the limits the named action enforces, sorted:
// timeout_ms for every action, and its card's Limits for a built one. A
// limit outside this list, configured or decided, would be accepted and
// ignored, so the host refuses it (CheckConfigured at start-up,
// Unenforced after each decision).
func Enforced(name string) []string {
	out := []string{TimeoutLimit}
	if s, ok := Lookup(name); ok {
		for l := range s.Limits {
			out = append(out, l)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// Unenforced returns the names in limits that the named action does not
// enforce, sorted; none when it enforces them all. A value below 1 is not
// enforced either: Call.Limit reads it as unset and gives the default.
func Unenforced(name string, limits map[string]int64) []string {
	var out []string
	for k, v := range limits {
		if v < 1 || !enforces(name, k) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

func enforces(name, limit string) bool {
	if limit == TimeoutLimit {
		return true
	}
	s, ok := Lookup(name)
	if !ok {
		return false
	}
	_, named := s.Limits[limit]
	return named
}

// CheckConfigured refuses configured limits (config's limits member, by
// action) that their action does not enforce: such a limit would be
// accepted and silently ignored.
func CheckConfigured(limits map[string]map[string]int64) error {
	actions := make([]string, 0, len(limits))
	for a := range limits {
		actions = append(actions, a)
	}
	sort.Strings(actions)
	for _, a := range actions {
		if bad := Unenforced(a, limits[a]); len(bad) > 0 {
			return fmt.Errorf("limits.%s.%s: %s does not enforce %s; it enforces %s",
				a, bad[0], a, bad[0], strings.Join(Enforced(a), ", "))
		}
	}
	return nil
}

// Lower returns the decision's limit, or the request's own when it is
// positive and smaller: a request may only tighten a limit.
func Lower(limit, requested int64) int64 {
	if requested > 0 && requested < limit {
		return requested
	}
	return limit
}
