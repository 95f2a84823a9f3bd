//go:build linux || darwin

package warm

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Listener is a warm process's socket, held with its lock: one warm
// process per socket.
type Listener struct {
	l    *net.UnixListener
	lock *os.File
}

// ErrTaken means another warm process holds the socket.
var ErrTaken = errors.New("warm: another process serves this socket")

// Listen takes socket's lock and listens on it, replacing a socket a
// process that ended left behind. Its folder must be Private. Only this
// user can connect (mode 0600), and Accept checks each peer anyway.
func Listen(socket string) (*Listener, error) {
	if err := Private(filepath.Dir(socket)); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(socket+".lock", os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		lock.Close()
		return nil, ErrTaken
	}
	os.Remove(socket) // the lock is ours: whoever made it has ended
	old := syscall.Umask(0o177)
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: socket, Net: "unix"})
	syscall.Umask(old)
	if err != nil {
		lock.Close()
		return nil, err
	}
	l.SetUnlinkOnClose(true)
	return &Listener{l: l, lock: lock}, nil
}

// Accept waits at most idle for the next connection from this user; a
// connection from anyone else is closed and not returned. It returns an
// error wrapping os.ErrDeadlineExceeded when idle passed.
func (l *Listener) Accept(idle time.Duration) (net.Conn, error) {
	for {
		if err := l.l.SetDeadline(time.Now().Add(idle)); err != nil {
			return nil, err
		}
		c, err := l.l.AcceptUnix()
		if err != nil {
			return nil, err
		}
		if err := peerIsSelf(c); err != nil {
			c.Close()
			continue
		}
		return c, nil
	}
}

// Close stops listening, removes the socket and lets its lock go.
func (l *Listener) Close() error {
	err := l.l.Close()
	l.lock.Close()
	return err
}

// peerIsSelf checks that c's peer runs as this user.
func peerIsSelf(c *net.UnixConn) error {
	raw, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var uid int
	var perr error
	if err := raw.Control(func(fd uintptr) { uid, perr = peerUID(int(fd)) }); err != nil {
		return err
	}
	if perr != nil {
		return perr
	}
	if uid != os.Getuid() {
		return fmt.Errorf("warm: a connection from user %d", uid)
	}
	return nil
}

// DialWait is Dial for a socket whose warm process may still be starting:
// the one holding the socket's lock, which another deskbridge-host started
// at the same moment (ReadyTaken). It connects as soon as the socket is
// there (the holder listens before it compiles the policy) and waits for
// the hello's answer, which the holder sends once it serves: all within
// wait. It gives up at once when no process holds the lock (the holder
// failed and ended), and then returns the dial's error.
func DialWait(socket, origin string, wait time.Duration) (net.Conn, error) {
	end := time.Now().Add(wait)
	for {
		c, err := dial(socket)
		if err == nil {
			return hello(c, origin, time.Until(end))
		}
		notYet := errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED)
		if !notYet || !held(socket) || time.Now().After(end) {
			return nil, err
		}
		// The holder has the lock and is between taking it and listening:
		// a few system calls, with no event to wait on.
		time.Sleep(time.Millisecond)
	}
}

// held reports whether a process holds socket's lock (Listen's): a shared
// lock cannot be had while it is held exclusively; one that was had is let
// go at once.
func held(socket string) bool {
	f, err := os.OpenFile(socket+".lock", os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return unix.Flock(int(f.Fd()), unix.LOCK_SH|unix.LOCK_NB) != nil
}

// dial connects to socket; only this user's processes can listen in
// its Private folder.
func dial(socket string) (net.Conn, error) {
	return net.DialUnix("unix", nil, &net.UnixAddr{Name: socket, Net: "unix"})
}

// SendFiles hands files (their descriptors) to the process at c's other
// end.
func SendFiles(conn net.Conn, files ...*os.File) error {
	c, ok := conn.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("warm: %T is not a Unix socket", conn)
	}
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	_, _, err := c.WriteMsgUnix([]byte{0}, unix.UnixRights(fds...), nil)
	return err
}

// ReceiveFiles takes exactly n descriptors sent with SendFiles; anything
// else is an error and what came is closed.
func ReceiveFiles(conn net.Conn, n int) ([]*os.File, error) {
	c, ok := conn.(*net.UnixConn)
	if !ok {
		return nil, fmt.Errorf("warm: %T is not a Unix socket", conn)
	}
	// Room for one descriptor more than expected: more sent always shows
	// as a wrong count (what did not fit the kernel closes).
	oob := make([]byte, unix.CmsgSpace(4*(n+1)))
	_, oobn, _, _, err := c.ReadMsgUnix(make([]byte, 1), oob)
	if err != nil {
		return nil, err
	}
	var fds []int
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	for _, m := range msgs {
		got, perr := unix.ParseUnixRights(&m)
		err = errors.Join(err, perr)
		fds = append(fds, got...)
	}
	if err == nil && len(fds) != n {
		err = fmt.Errorf("warm: %d descriptors sent, %d expected", len(fds), n)
	}
	if err != nil {
		for _, fd := range fds {
			unix.Close(fd)
		}
		return nil, err
	}
	files := make([]*os.File, n)
	for i, fd := range fds {
		unix.CloseOnExec(fd)
		files[i] = os.NewFile(uintptr(fd), []string{"stdin", "stdout", "stderr"}[min(i, 2)])
	}
	return files, nil
}
