package proc

import (
	"encoding/binary"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// seccompData is a struct seccomp_data for system call nr of table arch
// with first argument arg0, as the filter reads it: the kernel loads each
// 32-bit word in the host's (little-endian) order, x/net/bpf's machine in
// network order, so each word is written big-endian here, the low half of
// arg0 at offArg0.
func seccompData(nr, arch uint32, arg0 uint64) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[offNr:], nr)
	binary.BigEndian.PutUint32(b[offArch:], arch)
	binary.BigEndian.PutUint32(b[offArg0:], uint32(arg0))
	binary.BigEndian.PutUint32(b[offArg0+4:], uint32(arg0>>32))
	return b
}

// TestSeccompProgram runs the filter in x/net/bpf's virtual machine over
// the calls it must refuse and some it must let through.
func TestSeccompProgram(t *testing.T) {
	insts, ok := seccompProgram()
	if !ok {
		t.Skip("no filter on this architecture")
	}
	vm, err := bpf.NewVM(insts)
	if err != nil {
		t.Fatal(err)
	}
	errno := func(e unix.Errno) uint32 { return unix.SECCOMP_RET_ERRNO | uint32(e) }
	tests := []struct {
		name      string
		nr, arch  uint32
		arg0      uint64
		want      uint32
		skipNoX32 bool
	}{
		{"unix socket", unix.SYS_SOCKET, auditArch, unix.AF_UNIX, errno(unix.EACCES), false},
		{"unix socket, high bits set", unix.SYS_SOCKET, auditArch, 1<<32 | unix.AF_UNIX, errno(unix.EACCES), false},
		{"inet socket", unix.SYS_SOCKET, auditArch, unix.AF_INET, unix.SECCOMP_RET_ALLOW, false},
		{"socketpair", unix.SYS_SOCKETPAIR, auditArch, unix.AF_UNIX, unix.SECCOMP_RET_ALLOW, false},
		{"shmget", unix.SYS_SHMGET, auditArch, 0, errno(unix.EPERM), false},
		{"semget", unix.SYS_SEMGET, auditArch, 0, errno(unix.EPERM), false},
		{"io_uring_setup", unix.SYS_IO_URING_SETUP, auditArch, 0, errno(unix.ENOSYS), false},
		{"read", unix.SYS_READ, auditArch, 0, unix.SECCOMP_RET_ALLOW, false},
		{"another table", unix.SYS_READ, auditArch ^ 1, 0, errno(unix.ENOSYS), false},
		{"x32 socket", foreignNr | unix.SYS_SOCKET, auditArch, unix.AF_UNIX, errno(unix.ENOSYS), true},
	}
	for _, tt := range tests {
		if tt.skipNoX32 && foreignNr == 0 {
			continue
		}
		got, err := vm.Run(seccompData(tt.nr, tt.arch, tt.arg0))
		if err != nil || uint32(got) != tt.want {
			t.Errorf("%s: %#x %v, want %#x", tt.name, got, err, tt.want)
		}
	}
}

// confinedOrSkip skips where Run would not confine a child (no Landlock,
// or a host whose main does not run the trampoline).
func confinedOrSkip(t *testing.T) {
	if up, reason := LandlockStatus(); !up {
		t.Skipf("no wall here: %s", reason)
	}
}

// TestConfinedChildCannotReachPathSocket: a confined child cannot connect
// to a Unix socket with a path made outside the wall (a session bus, a
// tmux server, an agent), which Landlock alone does not cover.
func TestConfinedChildCannotReachPathSocket(t *testing.T) {
	confinedOrSkip(t)
	path := filepath.Join(t.TempDir(), "s.sock")
	checkSocketWalled(t, path, strconv.Quote(path))
}

// TestConfinedChildHasNoSysVIPC: a confined child cannot make (or reach by
// key) SysV shared memory, which crosses the wall.
func TestConfinedChildHasNoSysVIPC(t *testing.T) {
	confinedOrSkip(t)
	s := Spec{Path: "/usr/bin/ipcmk", Argv: []string{"ipcmk", "-M", "1024"}, Timeout: 20 * time.Second}
	s.WritableRoots = []string{t.TempDir()}
	if res := mustRun(t, s); res.ExitCode == 0 {
		t.Fatalf("the confined child made a shared memory segment: %q", res.Stdout)
	}
	s.WritableRoots = nil
	res := mustRun(t, s)
	if res.ExitCode != 0 {
		t.Fatalf("an unconfined ipcmk failed: %q", res.Stderr)
	}
	if f := strings.Fields(string(res.Stdout)); len(f) > 0 { // "Shared memory id: N"
		_ = exec.Command("ipcrm", "-m", f[len(f)-1]).Run()
	}
}
