//go:build linux || darwin

package main

import (
	"os"
	"syscall"
	"time"

	"github.com/deskbridge/deskbridge/internal/warm"
)

// startWarm starts `deskbridge [--config FILE] warm-serve --socket S
// --ready-fd 3` detached: in a session of its own, with none of the
// browser's pipes (the browser waits for them to close), its own messages
// in S.log. It reports whether, within readyWait, the process said it
// serves (its policy compiled) or that another warm process, started at the
// same moment by another deskbridge-host, holds the socket: either way the
// message goes to the warm process on the socket (warm.DialWait), and a
// host does not compile the same policy beside it. Failing costs this
// message a host start, nothing else.
func startWarm(full, config, socket string) bool {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return false
	}
	defer null.Close()
	logf, err := os.OpenFile(socket+".log", os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return false
	}
	defer logf.Close()
	ready, said, err := os.Pipe()
	if err != nil {
		return false
	}
	defer ready.Close()
	argv := []string{full}
	if config != "" {
		argv = append(argv, "--config", config)
	}
	argv = append(argv, "warm-serve", "--socket", socket, "--ready-fd", "3")
	p, err := os.StartProcess(full, argv, &os.ProcAttr{
		Files: []*os.File{null, logf, logf, said},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	said.Close()
	if err != nil {
		return false
	}
	p.Release()
	ready.SetReadDeadline(time.Now().Add(readyWait))
	answer := make([]byte, 1)
	n, _ := ready.Read(answer) // one byte when ready or taken; EOF when it ended
	return n == 1 && (answer[0] == warm.ReadyServing || answer[0] == warm.ReadyTaken)
}

// direct becomes deskbridge with the same arguments: it serves the port
// as if the browser had started it.
func direct(full string, args []string) int {
	err := syscall.Exec(full, append([]string{full}, args...), os.Environ())
	os.Stderr.WriteString("deskbridge-host: " + err.Error() + "\n")
	return 1
}
