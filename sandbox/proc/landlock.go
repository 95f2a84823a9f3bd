package proc

// trampolineReady is set by MaybeRunTrampoline: only then may Run re-execute
// the host, since a host whose main never calls it would not understand the
// marker.
var trampolineReady bool

// LandlockStatus reports whether Run can confine a child's writes, and if
// not, why (for get_skill_profile).
func LandlockStatus() (up bool, reason string) {
	if !trampolineReady {
		return false, "the host's main does not call proc.MaybeRunTrampoline"
	}
	return landlockStatus()
}
