//go:build linux || darwin

package warm

import (
	"fmt"
	"net"
	"os"
	"sync"
	"time"
)

// TakePort receives deskbridge-host's standard input, output and error
// over conn (SendFiles), once the hello has been answered OK.
func TakePort(conn net.Conn) (*Port, error) {
	files, err := ReceiveFiles(conn, 3)
	if err != nil {
		return nil, err
	}
	conn.SetReadDeadline(time.Time{})
	gone := make(chan struct{})
	go func() {
		conn.Read(make([]byte, 1)) // returns when deskbridge-host ends
		close(gone)
	}()
	return &Port{
		In: files[0], Out: files[1], Err: files[2],
		gone:  gone,
		close: sync.OnceFunc(func() { files[0].Close(); files[1].Close(); files[2].Close() }),
		done:  func(status int) error { return WriteFrame(conn, Done{Status: status}) },
	}, nil
}

// HandOver gives the warm process at conn's other end this program's
// standard streams stdin, stdout and stderr (the browser's port) and
// waits until it has served them; it returns the exit status the warm
// process reports.
func HandOver(conn net.Conn, stdin, stdout, stderr *os.File) (int, error) {
	if err := SendFiles(conn, stdin, stdout, stderr); err != nil {
		return 1, err
	}
	var done Done
	if err := ReadFrame(conn, &done); err != nil {
		return 1, fmt.Errorf("the warm process ended: %w", err)
	}
	return done.Status, nil
}
