//go:build linux

package proc

import (
	"fmt"
	"os"
	"strconv"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// trampolineMarker is argv[1] of the host re-executed as a trampoline;
// noNetMarker that of one whose program may create no socket at all
// (Spec.NoNetwork).
const (
	trampolineMarker = "__deskbridge_sandbox_exec__"
	noNetMarker      = "__deskbridge_sandbox_exec_nonet__"
)

// writeRights are every right that creates, changes or removes a file; the
// rights to read and execute are left alone.
const writeRights = landlock.AccessFSSet(ll.AccessFSWriteFile | ll.AccessFSRemoveDir |
	ll.AccessFSRemoveFile | ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg |
	ll.AccessFSMakeSock | ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym |
	ll.AccessFSRefer | ll.AccessFSTruncate)

// fileRights are the write rights that apply to a single file.
const fileRights = landlock.AccessFSSet(ll.AccessFSWriteFile | ll.AccessFSTruncate)

// devices stay writable: programs write to /dev/null freely.
var devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty"}

func landlockStatus() (bool, string) {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 1 {
		return false, "the kernel offers no Landlock"
	}
	if _, err := os.Executable(); err != nil {
		return false, "the host cannot find its own executable"
	}
	reason := "Landlock ABI " + strconv.Itoa(v)
	if auditArch != 0 {
		reason += ", and seccomp refuses Unix sockets, SysV IPC and io_uring"
	}
	return true, reason
}

// MaybeRunTrampoline must be called first thing in the host's main. When
// the process was started as Run's trampoline, it confines its own writes
// with Landlock and execs the program, never returning; otherwise it records
// that the trampoline is available and returns.
func MaybeRunTrampoline() {
	if len(os.Args) < 2 || (os.Args[1] != trampolineMarker && os.Args[1] != noNetMarker) {
		trampolineReady = true
		return
	}
	err := trampoline(os.Args[2:], os.Args[1] == noNetMarker)
	fmt.Fprintf(os.Stderr, "deskbridge sandbox: %v\n", err)
	os.Exit(126)
}

// trampoline runs "N root1 … rootN path argv0 argv…".
func trampoline(args []string, noNet bool) error {
	roots, path, argv, err := decodeTrampoline(args)
	if err != nil {
		return err
	}
	if err := restrictWrites(roots); err != nil {
		return fmt.Errorf("landlock: %w", err)
	}
	if err := loadSeccomp(noNet); err != nil {
		return fmt.Errorf("seccomp: %w", err)
	}
	return syscall.Exec(path, argv, os.Environ())
}

// scopes keep the child from connecting to an abstract Unix socket (an X11
// display, a session bus) or signalling a process outside its own Landlock
// domain, where the kernel offers it (ABI 6); a socket with a path in
// the file system Landlock does not cover, the seccomp filter does.
const scopes = landlock.ScopedSet(ll.ScopeAbstractUnixSocket | ll.ScopeSignal)

func restrictWrites(roots []string) error {
	cfg := landlock.Config{HandledAccessFS: writeRights, Scoped: scopes}.BestEffort()
	return cfg.Restrict( // Restrict, not RestrictPaths, which drops the scopes
		landlock.PathAccess(writeRights, roots...),
		landlock.PathAccess(fileRights, devices...).IgnoreIfMissing(),
	)
}

func encodeTrampoline(roots []string, path string, argv []string, noNet ...bool) []string {
	marker := trampolineMarker
	if len(noNet) > 0 && noNet[0] {
		marker = noNetMarker
	}
	out := []string{"deskbridge-sandbox", marker, strconv.Itoa(len(roots))}
	out = append(out, roots...)
	out = append(out, path)
	return append(out, argv...)
}

func decodeTrampoline(args []string) (roots []string, path string, argv []string, err error) {
	if len(args) == 0 {
		return nil, "", nil, fmt.Errorf("no arguments")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 || len(args) < n+3 {
		return nil, "", nil, fmt.Errorf("malformed arguments")
	}
	return args[1 : 1+n], args[1+n], args[2+n:], nil
}

// wrap returns the program to start: the trampoline around path when writes
// are to be confined and Landlock is up, else path itself.
func wrap(path string, argv, roots []string, noNet bool) (string, []string, bool, error) {
	if len(roots) == 0 {
		return path, argv, false, nil
	}
	if up, _ := LandlockStatus(); !up {
		return path, argv, false, nil
	}
	self, err := os.Executable()
	if err != nil {
		return path, argv, false, nil
	}
	return self, encodeTrampoline(roots, path, argv, noNet), true, nil
}
