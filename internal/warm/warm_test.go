//go:build linux || darwin

package warm

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A warm process serves only hosts that would start as it did: the name
// changes with the binary, the --config argument, the environment and the
// working folder.
func TestKeyNamesTheConditions(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "deskbridge")
	if err := os.WriteFile(bin, []byte("one"), 0o755); err != nil {
		t.Fatal(err)
	}
	key := func() string {
		t.Helper()
		k, err := Key(bin, "/etc/db.json")
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key()
	if k2 := key(); k2 != base {
		t.Fatalf("the same conditions give %s and %s", base, k2)
	}
	changes := map[string]func(){
		"environment": func() { t.Setenv("DESKBRIDGE_TEST_KEY", "x") },
		"binary":      func() { os.WriteFile(bin, []byte("other build"), 0o755) },
		"folder":      func() { t.Chdir(dir) },
	}
	for _, name := range []string{"environment", "binary", "folder"} {
		before := key()
		changes[name]()
		if key() == before {
			t.Errorf("a changed %s names the same warm process", name)
		}
	}
	if k, _ := Key(bin, "/etc/other.json"); k == key() {
		t.Error("another --config names the same warm process")
	}
}

// ReceiveFiles takes exactly the descriptors it expects.
func TestReceiveFilesCountsDescriptors(t *testing.T) {
	a, b := pair(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if err := SendFiles(a, r, w); err != nil {
		t.Fatal(err)
	}
	if fs, err := ReceiveFiles(b, 3); err == nil {
		t.Fatalf("two descriptors taken for three: %v", fs)
	}
	if err := SendFiles(a, r, w, w); err != nil {
		t.Fatal(err)
	}
	fs, err := ReceiveFiles(b, 3)
	if err != nil || len(fs) != 3 {
		t.Fatalf("ReceiveFiles = %v, %v", fs, err)
	}
	fs[1].Write([]byte("x"))
	got := make([]byte, 1)
	if _, err := r.Read(got); err != nil || got[0] != 'x' {
		t.Fatalf("the received descriptor is not the pipe: %q %v", got, err)
	}
}

func pair(t *testing.T) (*net.UnixConn, *net.UnixConn) {
	t.Helper()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	conn := func(fd int) *net.UnixConn {
		f := os.NewFile(uintptr(fd), "pair")
		defer f.Close()
		c, err := net.FileConn(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c.(*net.UnixConn)
	}
	return conn(fds[0]), conn(fds[1])
}

// One warm process per socket: a second Listen finds it taken.
func TestListenOnePerSocket(t *testing.T) {
	dir := privateDir(t)
	l, err := Listen(SocketPath(dir, "k"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := Listen(SocketPath(dir, "k")); !errors.Is(err, ErrTaken) {
		t.Fatalf("a second Listen = %v; want ErrTaken", err)
	}
	if fi, err := os.Stat(SocketPath(dir, "k")); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
}

func privateDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "dbw-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// A connection from another user is closed unanswered, even where the
// socket's folder and mode would let it in: Accept checks the peer's
// credentials. (Needs root, to run the other user's client.)
func TestAcceptRefusesOtherUsers(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("running a client as another user needs root")
	}
	py := "/usr/bin/python3" // not a per-user install the other user cannot run
	if _, err := os.Stat(py); err != nil {
		t.Skip("no /usr/bin/python3: .ci/run installs it")
	}
	dir := privateDir(t)
	socket := SocketPath(dir, "k")
	l, err := Listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	os.Chmod(dir, 0o755) // the folder and socket let anyone in: only the credential check is left
	os.Chmod(socket, 0o777)
	accepted := make(chan net.Conn, 2)
	go func() {
		for {
			c, err := l.Accept(30 * time.Second)
			if err != nil {
				close(accepted)
				return
			}
			c.Write([]byte("served\n"))
			accepted <- c
		}
	}()
	client := `import socket,sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(5)
try: sys.stdout.write(s.recv(64).decode() or "closed")
except Exception as e: sys.stdout.write("error " + str(e))`
	run := func(uid uint32) string {
		cmd := exec.Command(py, "-c", client, socket)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uid, Gid: uid}}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("client as %d: %v", uid, err)
		}
		return string(out)
	}
	if got := run(65534); got != "closed" {
		t.Fatalf("a client of user 65534 got %q; want the connection closed unanswered", got)
	}
	if got := run(0); !bytes.Contains([]byte(got), []byte("served")) {
		t.Fatalf("a client of this user got %q", got)
	}
}

// The socket's lock file is never followed through a link (a process of
// this user that could plant one could make Listen create or lock a file
// elsewhere).
func TestListenRefusesALinkedLockFile(t *testing.T) {
	dir := privateDir(t)
	elsewhere := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.Symlink(elsewhere, SocketPath(dir, "k")+".lock"); err != nil {
		t.Fatal(err)
	}
	if l, err := Listen(SocketPath(dir, "k")); err == nil {
		l.Close()
		t.Fatal("Listen took a lock file that is a link")
	}
	if _, err := os.Lstat(elsewhere); !os.IsNotExist(err) {
		t.Fatalf("the link's target was created: %v", err)
	}
}

// More descriptors than expected, even more than ReceiveFiles makes room
// for, are refused too.
func TestReceiveFilesRefusesTooMany(t *testing.T) {
	a, b := pair(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if err := SendFiles(a, r, w, w, w, w, w); err != nil {
		t.Fatal(err)
	}
	if fs, err := ReceiveFiles(b, 3); err == nil {
		t.Fatalf("six descriptors taken for three: %v", fs)
	}
}
