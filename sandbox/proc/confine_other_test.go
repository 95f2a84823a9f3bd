//go:build !linux

package proc

// confineProbeEnv is unused off Linux, where ConfineSelf does nothing.
const confineProbeEnv = "DESKBRIDGE_TEST_CONFINE_SELF"

func confineProbe(string) int { return 2 }
