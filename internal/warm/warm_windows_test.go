package warm

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/deskbridge/deskbridge/internal/testkit/wine"
	"golang.org/x/sys/windows"
)

// listenHere listens on a pipe named after a fresh folder.
func listenHere(t *testing.T) (*Listener, string) {
	t.Helper()
	socket := SocketPath(t.TempDir(), "k")
	l, err := Listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l, socket
}

// One warm process per pipe: a second Listen finds the name taken.
func TestPipeOnePerName(t *testing.T) {
	_, socket := listenHere(t)
	if l, err := Listen(socket); !errors.Is(err, ErrTaken) {
		if l != nil {
			l.Close()
		}
		t.Fatalf("a second Listen = %v; want ErrTaken", err)
	}
}

// A pipe name another process made first (another user, in the
// machine's pipe namespace) is refused, not served beside it.
func TestPipeNameMadeFirstIsRefused(t *testing.T) {
	wine.Skip(t, wine.NoFirstPipeInstance)
	socket := SocketPath(t.TempDir(), "k")
	name, _ := windows.UTF16PtrFromString(pipeName(socket))
	h, err := windows.CreateNamedPipe(name, windows.PIPE_ACCESS_DUPLEX, windows.PIPE_TYPE_BYTE, windows.PIPE_UNLIMITED_INSTANCES, 512, 512, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer windows.CloseHandle(h)
	if l, err := Listen(socket); !errors.Is(err, ErrTaken) {
		if l != nil {
			l.Close()
		}
		t.Fatalf("Listen on a name made first = %v; want ErrTaken", err)
	}
}

// The pipe's security descriptor admits this user alone: one entry,
// allowing this user's SID, none inherited; as built, and as the pipe
// Listen made holds it.
func TestPipeDescriptorAdmitsOnlyThisUser(t *testing.T) {
	user, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	sd, err := onlyUser(user)
	if err != nil {
		t.Fatal(err)
	}
	control, _, err := sd.Control()
	if err != nil || control&windows.SE_DACL_PROTECTED == 0 {
		t.Errorf("the DACL is not protected from inheritance: control %#x, %v", control, err)
	}
	onlyEntryFor(t, sd, user)
	l, _ := listenHere(t)
	live, err := windows.GetSecurityInfo(l.next, windows.SE_KERNEL_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatalf("the pipe's security descriptor: %v", err)
	}
	onlyEntryFor(t, live, user)
}

// onlyEntryFor checks that sd's DACL has one entry, allowing user.
func onlyEntryFor(t *testing.T, sd *windows.SECURITY_DESCRIPTOR, user *windows.SID) {
	t.Helper()
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil {
		t.Fatalf("no DACL in %s: %v", sd, err)
	}
	if dacl.AceCount != 1 {
		t.Fatalf("the DACL has %d entries; want one (%s)", dacl.AceCount, sd)
	}
	var ace *windows.ACCESS_ALLOWED_ACE
	if err := windows.GetAce(dacl, 0, &ace); err != nil {
		t.Fatal(err)
	}
	sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
	if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || !sid.Equals(user) {
		t.Fatalf("the entry is of type %d for %s; want allowed for %s", ace.Header.AceType, sid, user)
	}
}

// A client of another user is closed unanswered. Wine runs every process
// as one user, so the listener here serves another user (LocalSystem):
// this test's own client is then the other user's.
func TestAcceptRefusesOtherUsers(t *testing.T) {
	l, socket := listenHere(t)
	system, err := windows.CreateWellKnownSid(windows.WinLocalSystemSid)
	if err != nil {
		t.Fatal(err)
	}
	l.user = system
	accepted := make(chan error, 1)
	go func() {
		c, err := l.Accept(5 * time.Second)
		if err == nil {
			c.Write([]byte("served"))
			c.Close()
		}
		accepted <- err
	}()
	me, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	c, err := dialUser(socket, me, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if b, err := io.ReadAll(c); len(b) > 0 {
		t.Fatalf("a client of another user read %q, %v", b, err)
	}
	if err := <-accepted; !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("Accept = %v; want no connection returned (deadline)", err)
	}
}

// deskbridge-host refuses a pipe whose server runs as another user: the
// pipe namespace is the machine's, and another user could have made the
// name first.
func TestDialRefusesAnotherUsersServer(t *testing.T) {
	_, socket := listenHere(t)
	system, err := windows.CreateWellKnownSid(windows.WinLocalSystemSid)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := dialUser(socket, system, 5*time.Second); err == nil {
		c.Close()
		t.Fatal("connected to a pipe whose server runs as another user")
	}
}

// A port relayed over the pipe: the bytes both ways, the end of the
// input, the exit status; and Accept serves the next client on the next
// instance.
func TestPipeRelaysAPort(t *testing.T) {
	l, socket := listenHere(t)
	served := make(chan error, 2)
	go func() {
		for range 2 {
			c, err := l.Accept(10 * time.Second)
			if err != nil {
				served <- err
				return
			}
			go func() {
				defer c.Close()
				port, err := TakePort(c)
				if err != nil {
					served <- err
					return
				}
				b, err := io.ReadAll(port.In)
				port.Out.Write(bytes.ToUpper(b))
				port.Err.Write([]byte("log\n"))
				served <- errors.Join(err, port.Finish(len(b)))
			}()
		}
	}()
	for i, msg := range []string{"first port", "second port"} {
		c, err := dial(socket)
		if err != nil {
			t.Fatalf("port %d: %v", i, err)
		}
		stdin, stdout, stderr := pipes(t, msg)
		status, err := HandOver(c, stdin, stdout.w, stderr.w)
		c.Close()
		if err != nil || status != len(msg) {
			t.Fatalf("port %d: HandOver = %d, %v; want %d", i, status, err, len(msg))
		}
		if got := stdout.read(t); got != strings.ToUpper(msg) {
			t.Fatalf("port %d: stdout %q", i, got)
		}
		if got := stderr.read(t); got != "log\n" {
			t.Fatalf("port %d: stderr %q", i, got)
		}
		if err := <-served; err != nil {
			t.Fatalf("port %d served: %v", i, err)
		}
	}
}

// Close ends a waiting Accept, and the name is free afterwards.
func TestCloseEndsAccept(t *testing.T) {
	l, socket := listenHere(t)
	done := make(chan error, 1)
	go func() {
		_, err := l.Accept(time.Minute)
		done <- err
	}()
	l.Close()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("Accept returned a connection after Close")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Accept still waits after Close")
	}
	l2, err := Listen(socket)
	if err != nil {
		t.Fatalf("Listen after Close: %v", err)
	}
	l2.Close()
}

// outPipe is an os.Pipe whose read end collects what was written.
type outPipe struct {
	w   *os.File
	got chan string
}

func (p outPipe) read(t *testing.T) string {
	t.Helper()
	p.w.Close()
	return <-p.got
}

// pipes are a standard input holding in, and a standard output and
// error to read back.
func pipes(t *testing.T, in string) (*os.File, outPipe, outPipe) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { w.WriteString(in); w.Close() }()
	t.Cleanup(func() { r.Close() })
	out := func() outPipe {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		p := outPipe{w: w, got: make(chan string, 1)}
		go func() { b, _ := io.ReadAll(r); r.Close(); p.got <- string(b) }()
		return p
	}
	return r, out(), out()
}
