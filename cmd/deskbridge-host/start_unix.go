//go:build linux || darwin

package main

import (
	"os"
	"syscall"
)

// startWarm starts `deskbridge [--config FILE] warm-serve --socket S`
// detached: in a session of its own, with none of the browser's pipes
// (the browser waits for them to close), its own messages in S.log.
// Failing to start it costs the next message a host start, nothing else.
func startWarm(full, config, socket string) {
	null, err := os.Open(os.DevNull)
	if err != nil {
		return
	}
	defer null.Close()
	logf, err := os.OpenFile(socket+".log", os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return
	}
	defer logf.Close()
	argv := []string{full}
	if config != "" {
		argv = append(argv, "--config", config)
	}
	argv = append(argv, "warm-serve", "--socket", socket)
	p, err := os.StartProcess(full, argv, &os.ProcAttr{
		Files: []*os.File{null, logf, logf},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err == nil {
		p.Release()
	}
}

// direct becomes deskbridge with the same arguments: it serves the port
// as if the browser had started it.
func direct(full string, args []string) int {
	err := syscall.Exec(full, append([]string{full}, args...), os.Environ())
	os.Stderr.WriteString("deskbridge-host: " + err.Error() + "\n")
	return 1
}
