package warm

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Listener is a warm process's named pipe (pipeName), held with a lock
// beside the socket path: one warm process per name. Its first instance
// is created exclusively (FILE_FLAG_FIRST_PIPE_INSTANCE: a name another
// user made first is refused; Wine 8 does not enforce the flag, hence the
// lock), and a new one is always made before the connected one is handed
// out, so the name is never free while the process serves. Every
// instance's security descriptor admits only this user (onlyUser), and
// Accept checks each client's user anyway.
type Listener struct {
	lock   *os.File
	name   string
	sa     *windows.SecurityAttributes
	user   *windows.SID   // the one user served
	stop   windows.Handle // event: Close was called
	ready  windows.Handle // event: the pending connection completed
	ov     *windows.Overlapped
	mu     sync.Mutex
	next   windows.Handle // the instance waiting for the next client
	busy   bool           // an Accept is running
	closed bool
}

// ErrTaken means another warm process holds the socket.
var ErrTaken = errors.New("warm: another process serves this socket")

// Listen takes socket's lock and creates the first instance of its pipe;
// ErrTaken when another process holds either. socket's folder must be
// Private (its lock and log are there).
func Listen(socket string) (*Listener, error) {
	if err := Private(filepath.Dir(socket)); err != nil {
		return nil, err
	}
	lock, err := takeLock(socket + ".lock")
	if err != nil {
		return nil, err
	}
	l, err := listen(socket)
	if err != nil {
		lock.Close()
		return nil, err
	}
	l.lock = lock
	return l, nil
}

// takeLock opens and locks path, refusing anything but a file there (a
// link could have it create or lock a file elsewhere); ErrTaken when
// another process holds the lock.
func takeLock(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("warm: %s is not a file", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	ol := new(windows.Overlapped)
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err != nil {
		f.Close()
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return nil, ErrTaken
		}
		return nil, err
	}
	return f, nil
}

// held reports whether a process holds socket's lock (Listen's): a shared
// lock cannot be had while it is held exclusively; one that was had is let
// go at once.
func held(socket string) bool {
	f, err := os.Open(socket + ".lock")
	if err != nil {
		return false
	}
	defer f.Close()
	ol := new(windows.Overlapped)
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, ol)
	if err == nil {
		windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, ol)
	}
	return errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// listen creates the first instance of socket's pipe.
func listen(socket string) (*Listener, error) {
	user, err := currentUser()
	if err != nil {
		return nil, err
	}
	sd, err := onlyUser(user)
	if err != nil {
		return nil, err
	}
	l := &Listener{name: pipeName(socket), user: user, ov: new(windows.Overlapped)}
	l.sa = &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}
	if l.stop, err = windows.CreateEvent(nil, 1, 0, nil); err != nil {
		return nil, err
	}
	if l.ready, err = windows.CreateEvent(nil, 1, 0, nil); err != nil {
		windows.CloseHandle(l.stop)
		return nil, err
	}
	l.ov.HEvent = l.ready
	l.next, err = l.instance(true)
	if err != nil {
		windows.CloseHandle(l.stop)
		windows.CloseHandle(l.ready)
		if errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_PIPE_BUSY) {
			return nil, ErrTaken
		}
		return nil, &os.PathError{Op: "listen", Path: l.name, Err: err}
	}
	return l, nil
}

// onlyUser is the security descriptor of every pipe instance: one entry,
// full access for user, and none inherited from elsewhere (protected).
func onlyUser(user *windows.SID) (*windows.SECURITY_DESCRIPTOR, error) {
	return windows.SecurityDescriptorFromString("D:P(A;;GA;;;" + user.String() + ")")
}

// instance creates an instance of the pipe, the first one exclusively:
// overlapped, byte mode, local clients only.
func (l *Listener) instance(first bool) (windows.Handle, error) {
	name, err := windows.UTF16PtrFromString(l.name)
	if err != nil {
		return 0, err
	}
	flags := uint32(windows.PIPE_ACCESS_DUPLEX | windows.FILE_FLAG_OVERLAPPED)
	if first {
		flags |= windows.FILE_FLAG_FIRST_PIPE_INSTANCE
	}
	mode := uint32(windows.PIPE_TYPE_BYTE | windows.PIPE_READMODE_BYTE | windows.PIPE_WAIT | windows.PIPE_REJECT_REMOTE_CLIENTS)
	return windows.CreateNamedPipe(name, flags, mode, windows.PIPE_UNLIMITED_INSTANCES, 64<<10, 64<<10, 0, l.sa)
}

// Accept waits at most idle for the next connection from this user; a
// connection from anyone else is closed and not returned. It returns an
// error wrapping os.ErrDeadlineExceeded when idle passed, net.ErrClosed
// once Close was called.
func (l *Listener) Accept(idle time.Duration) (net.Conn, error) {
	l.mu.Lock()
	if l.closed || l.busy {
		l.mu.Unlock()
		return nil, net.ErrClosed
	}
	l.busy = true
	l.mu.Unlock()
	defer l.idle()
	end := time.Now().Add(idle)
	for {
		h, err := l.connect(time.Until(end))
		if err != nil {
			return nil, err
		}
		if err := peerIs(h, l.user, windows.GetNamedPipeClientProcessId); err != nil {
			windows.CloseHandle(h) // unanswered
			continue
		}
		return newPipeConn(h, l.name), nil
	}
}

// idle ends an Accept; after Close, it lets the pipe go.
func (l *Listener) idle() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.busy = false
	if l.closed {
		l.release()
	}
}

// connect waits at most wait for a client on the waiting instance and
// returns it connected, a new instance waiting in its place.
func (l *Listener) connect(wait time.Duration) (windows.Handle, error) {
	h := l.next
	windows.ResetEvent(l.ready)
	err := windows.ConnectNamedPipe(h, l.ov)
	if errors.Is(err, windows.ERROR_IO_PENDING) {
		err = l.await(h, wait)
	} else if errors.Is(err, windows.ERROR_PIPE_CONNECTED) {
		err = nil // the client came before ConnectNamedPipe
	}
	if err == nil {
		err = l.replace()
	}
	if err != nil {
		if !errors.Is(err, net.ErrClosed) && !errors.Is(err, os.ErrDeadlineExceeded) {
			err = &os.PathError{Op: "accept", Path: l.name, Err: err}
		}
		return 0, err
	}
	return h, nil
}

// await waits for the pending ConnectNamedPipe on h, Close or wait; on
// Close or wait it cancels the connection and waits for the cancel (the
// OVERLAPPED is the kernel's until then).
func (l *Listener) await(h windows.Handle, wait time.Duration) error {
	ms := uint32(max(0, wait.Milliseconds()))
	w, err := windows.WaitForMultipleObjects([]windows.Handle{l.ready, l.stop}, false, ms)
	if err == nil && w == windows.WAIT_OBJECT_0 {
		var n uint32
		return windows.GetOverlappedResult(h, l.ov, &n, false)
	}
	windows.CancelIoEx(h, l.ov)
	var n uint32
	connected := windows.GetOverlappedResult(h, l.ov, &n, true) == nil
	switch {
	case w == windows.WAIT_OBJECT_0+1:
		if connected {
			windows.DisconnectNamedPipe(h) // closed unanswered
		}
		return net.ErrClosed
	case connected:
		return nil // the client came as the wait ended
	}
	// An instance whose wait was cancelled is replaced, so that a
	// ConnectNamedPipe never follows a cancelled one.
	if err := l.replace(); err != nil {
		return err
	}
	windows.CloseHandle(h)
	return fmt.Errorf("warm: no connection within %v: %w", wait, os.ErrDeadlineExceeded)
}

// replace makes a new instance wait for the next client, before the
// current one is handed out or closed: the name stays this process's.
func (l *Listener) replace() error {
	h, err := l.instance(false)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.next = h
	return nil
}

// Close stops listening: a running Accept returns net.ErrClosed, and the
// name is free once it has.
func (l *Listener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	windows.SetEvent(l.stop)
	if !l.busy {
		l.release()
	}
	return nil
}

// release closes the waiting instance and the events and lets the lock
// go; l.mu is held.
func (l *Listener) release() {
	if l.lock != nil {
		l.lock.Close()
	}
	windows.CloseHandle(l.next)
	windows.CloseHandle(l.ready)
	windows.CloseHandle(l.stop)
	l.next, l.ready, l.stop = windows.InvalidHandle, windows.InvalidHandle, windows.InvalidHandle
}

// DialWait is Dial for a pipe whose warm process may still be starting:
// the one that created its first instance, which another deskbridge-host
// started at the same moment (ReadyTaken). It connects once an instance
// is free and waits for the hello's answer, which that process sends once
// it serves: all within wait. It gives up at once when no process holds
// the lock (that process ended).
func DialWait(socket, origin string, wait time.Duration) (net.Conn, error) {
	end := time.Now().Add(wait)
	user, err := currentUser()
	if err != nil {
		return nil, err
	}
	for {
		c, err := dialUser(socket, user, time.Until(end))
		if err == nil {
			return hello(c, origin, time.Until(end))
		}
		if !errors.Is(err, windows.ERROR_FILE_NOT_FOUND) || !held(socket) || time.Now().After(end) {
			return nil, err
		}
		// The holder has the lock and is between taking it and creating
		// the pipe: a few system calls, with no event to wait on.
		time.Sleep(time.Millisecond)
	}
}

// dial connects to socket's pipe and checks that its server runs as
// this user.
func dial(socket string) (net.Conn, error) {
	user, err := currentUser()
	if err != nil {
		return nil, err
	}
	return dialUser(socket, user, helloWait)
}

// dialUser connects to socket's pipe, waiting at most wait for a free
// instance, and checks that its server runs as user: the pipe namespace
// is the machine's, and another user could have made the name first.
// The warm process may identify this client but not act as it
// (SECURITY_IDENTIFICATION).
func dialUser(socket string, user *windows.SID, wait time.Duration) (net.Conn, error) {
	name := pipeName(socket)
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, err
	}
	end := time.Now().Add(wait)
	for {
		h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil, windows.OPEN_EXISTING,
			windows.FILE_FLAG_OVERLAPPED|windows.SECURITY_SQOS_PRESENT|windows.SECURITY_IDENTIFICATION, 0)
		if errors.Is(err, windows.ERROR_PIPE_BUSY) && time.Now().Before(end) {
			// Every instance is taken, and the server makes the next one
			// as it accepts: no event to wait on (WaitNamedPipe polls too).
			time.Sleep(time.Millisecond)
			continue
		}
		if err != nil {
			return nil, &os.PathError{Op: "dial", Path: name, Err: err}
		}
		if err := peerIs(h, user, windows.GetNamedPipeServerProcessId); err != nil {
			windows.CloseHandle(h)
			return nil, err
		}
		return newPipeConn(h, name), nil
	}
}

// peerIs checks that the process at the other end of pipe (its id from
// pidOf: GetNamedPipeClientProcessId or GetNamedPipeServerProcessId) runs
// as user, by its token.
func peerIs(pipe windows.Handle, user *windows.SID, pidOf func(windows.Handle, *uint32) error) error {
	var pid uint32
	if err := pidOf(pipe, &pid); err != nil {
		return err
	}
	got, err := processUser(pid)
	if err != nil {
		return err
	}
	if !got.Equals(user) {
		return fmt.Errorf("warm: the other end of the pipe runs as %s", got)
	}
	return nil
}

// processUser is the user of process pid's token.
func processUser(pid uint32) (*windows.SID, error) {
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return nil, err
	}
	defer windows.CloseHandle(p)
	var tok windows.Token
	if err := windows.OpenProcessToken(p, windows.TOKEN_QUERY, &tok); err != nil {
		return nil, err
	}
	defer tok.Close()
	return tokenUser(tok)
}

// currentUser is this process's user.
func currentUser() (*windows.SID, error) {
	return tokenUser(windows.GetCurrentProcessToken())
}

func tokenUser(tok windows.Token) (*windows.SID, error) {
	u, err := tok.GetTokenUser()
	if err != nil {
		return nil, err
	}
	return u.User.Sid.Copy()
}

// pipeConn is a connected pipe instance as a net.Conn: an overlapped
// handle, which os.File reads and writes through the runtime's poller,
// with deadlines.
type pipeConn struct {
	*os.File
	addr pipeAddr
}

func newPipeConn(h windows.Handle, name string) net.Conn {
	return &pipeConn{File: os.NewFile(uintptr(h), name), addr: pipeAddr(name)}
}

// LocalAddr is the pipe's name.
func (c *pipeConn) LocalAddr() net.Addr { return c.addr }

// RemoteAddr is the pipe's name.
func (c *pipeConn) RemoteAddr() net.Addr { return c.addr }

// pipeAddr is a pipe's name as a net.Addr.
type pipeAddr string

// Network is "pipe".
func (pipeAddr) Network() string { return "pipe" }

func (a pipeAddr) String() string { return string(a) }
