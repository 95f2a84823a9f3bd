package proc

import "errors"

// ErrNoSelfConfinement is ConfineSelf's answer on a system that offers no
// way for a process to confine itself.
var ErrNoSelfConfinement = errors.New("proc: this system offers no way for a process to confine itself")
