package warm

import (
	"net"
	"os"
)

// TakePort serves deskbridge-host's standard streams through the relay
// over conn (relay.go), once the hello has been answered OK: a process
// cannot receive another's handles over a pipe, and duplicating them out
// of deskbridge-host would need a handle to it with PROCESS_DUP_HANDLE,
// which gives all of its handles.
func TakePort(conn net.Conn) (*Port, error) { return relayPort(conn), nil }

// HandOver relays this program's standard streams stdin, stdout and
// stderr (the browser's port) to the warm process at conn's other end
// until it has served them; it returns the exit status the warm process
// reports.
func HandOver(conn net.Conn, stdin, stdout, stderr *os.File) (int, error) {
	return relayHandOver(conn, stdin, stdout, stderr)
}
