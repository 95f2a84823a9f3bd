//go:build linux

package proc

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// trampolineMarker is argv[1] of the host re-executed as a trampoline.
// Options follow it: "+nonet" for a program that may create no socket at
// all (Spec.NoNetwork), "+reads" for one whose reads are confined too
// (Spec.ReadRoots, whose count and paths then come first), "+self" for
// a child of this same executable (Spec.SelfChild), which the trampoline
// continues into once confined instead of starting it again.
const trampolineMarker = "__deskbridge_sandbox_exec__"

// wallOpts are the trampoline's options beyond the writable roots.
type wallOpts struct {
	noNet bool
	reads []string // nil: reads are not confined
	self  bool     // the program is this executable: continue, do not exec
}

// readRights are the rights to read files and folders and to run
// programs.
const readRights = landlock.AccessFSSet(ll.AccessFSExecute | ll.AccessFSReadFile | ll.AccessFSReadDir)

// fileReadRights are the read rights that apply to a single file.
const fileReadRights = landlock.AccessFSSet(ll.AccessFSExecute | ll.AccessFSReadFile)

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
// the process was started as Run's trampoline, it confines itself (Landlock,
// seccomp) and execs the program, never returning; a child of this same
// executable (Spec.SelfChild) it does not start again: it returns with
// os.Args set to the child's, confined, and main goes on into the child's
// MaybeRun function. Otherwise it marks the descriptors the process
// inherited close-on-exec (markInheritedCloseOnExec), records that the
// trampoline is available and returns.
func MaybeRunTrampoline() {
	if len(os.Args) < 2 || !strings.HasPrefix(os.Args[1], trampolineMarker) {
		markInheritedCloseOnExec()
		trampolineReady = true
		return
	}
	argv, err := trampoline(os.Args[2:], strings.Split(os.Args[1][len(trampolineMarker):], "+"))
	if err == nil {
		os.Args = argv
		trampolineReady = true
		return
	}
	fmt.Fprintf(os.Stderr, "deskbridge sandbox: %v\n", err)
	os.Exit(126)
}

// trampoline runs "[M read1 … readM] N root1 … rootN path argv0 argv…"
// with the options of its marker. It returns only on an error, or, for a
// child of this executable, once the process is confined: then with the
// child's argv, to go on in this process.
func trampoline(args, options []string) ([]string, error) {
	var o wallOpts
	for _, opt := range options {
		switch opt {
		case "nonet":
			o.noNet = true
		case "self":
			o.self = true
		case "reads":
			var err error
			if o.reads, args, err = decodeList(args); err != nil {
				return nil, err
			}
		}
	}
	roots, path, argv, err := decodeTrampoline(args)
	if err != nil {
		return nil, err
	}
	cont := o.self && isOwnExecutable(path)
	if err := restrict(roots, o.reads); err != nil {
		return nil, fmt.Errorf("landlock: %w", err)
	}
	if err := loadSeccomp(o.noNet); err != nil {
		return nil, fmt.Errorf("seccomp: %w", err)
	}
	if cont {
		runtime.UnlockOSThread() // loadSeccomp's lock: every thread is filtered
		return argv, nil
	}
	return nil, syscall.Exec(path, argv, os.Environ())
}

// isOwnExecutable reports whether path is the file this process runs:
// a child the trampoline can continue into rather than start again,
// saving the second start of the whole program.
func isOwnExecutable(path string) bool {
	self, err := os.Stat("/proc/self/exe")
	if err != nil {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && os.SameFile(self, fi)
}

// scopes keep the child from connecting to an abstract Unix socket (an X11
// display, a session bus) or signalling a process outside its own Landlock
// domain, where the kernel offers it (ABI 6); a socket with a path in
// the file system Landlock does not cover, the seccomp filter does.
const scopes = landlock.ScopedSet(ll.ScopeAbstractUnixSocket | ll.ScopeSignal)

// restrict confines writes to roots (and the devices) and, when reads is
// not nil, reads and program runs to reads and roots: a folder in reads
// is readable below it, a file in it (the program) readable and runnable.
func restrict(roots, reads []string) error {
	if reads == nil {
		cfg := landlock.Config{HandledAccessFS: writeRights, Scoped: scopes}.BestEffort()
		return cfg.Restrict( // Restrict, not RestrictPaths, which drops the scopes
			landlock.PathAccess(writeRights, roots...),
			landlock.PathAccess(fileRights, devices...).IgnoreIfMissing(),
		)
	}
	var dirs, files []string
	for _, r := range reads {
		if fi, err := os.Stat(r); err == nil && fi.IsDir() {
			dirs = append(dirs, r)
		} else if err == nil {
			files = append(files, r)
		}
	}
	cfg := landlock.Config{HandledAccessFS: writeRights | readRights, Scoped: scopes}.BestEffort()
	return cfg.Restrict(
		landlock.PathAccess(writeRights|readRights, roots...),
		landlock.PathAccess(fileRights, devices...).IgnoreIfMissing(),
		landlock.PathAccess(readRights, dirs...),
		landlock.PathAccess(fileReadRights, files...),
	)
}

// decodeList reads "M item1 … itemM" off the front of args.
func decodeList(args []string) (list, rest []string, err error) {
	if len(args) == 0 {
		return nil, nil, fmt.Errorf("no arguments")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 0 || len(args) < n+1 {
		return nil, nil, fmt.Errorf("malformed arguments")
	}
	return append([]string{}, args[1:1+n]...), args[1+n:], nil
}

func encodeTrampoline(roots []string, path string, argv []string, opts ...wallOpts) []string {
	var o wallOpts
	if len(opts) > 0 {
		o = opts[0]
	}
	marker := trampolineMarker
	if o.noNet {
		marker += "+nonet"
	}
	if o.self {
		marker += "+self"
	}
	var reads []string
	if o.reads != nil {
		marker += "+reads"
		reads = append([]string{strconv.Itoa(len(o.reads))}, o.reads...)
	}
	out := append([]string{"deskbridge-sandbox", marker}, reads...)
	out = append(out, strconv.Itoa(len(roots)))
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
func wrap(path string, argv, roots []string, o wallOpts) (string, []string, bool, error) {
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
	return self, encodeTrampoline(roots, path, argv, o), true, nil
}
