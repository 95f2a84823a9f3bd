package main

import (
	"fmt"
	"os"
	"syscall"
	"time"

	"github.com/deskbridge/deskbridge/internal/warm"
	"golang.org/x/sys/windows"
)

// startWarm starts `deskbridge [--config FILE] warm-serve --socket S
// --ready-fd H` detached: no console, a process group of its own, out of
// the browser's job where the job allows it, none of the browser's pipes
// (only the ready pipe's handle H is inherited), its own messages in
// S.log. It reports whether, within readyWait, the process said it serves
// (its policy compiled) or that another warm process, started at the same
// moment by another deskbridge-host, holds the pipe: either way the
// message goes to the warm process on the pipe (warm.DialWait). Failing
// costs this message a host start, nothing else.
func startWarm(full, config, socket string) bool {
	logf, err := openLog(socket + ".log")
	if err != nil {
		return false
	}
	defer logf.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		return false
	}
	defer null.Close()
	ready, said, err := os.Pipe()
	if err != nil {
		return false
	}
	defer ready.Close()
	// Inherited by the warm process alone: Go lists the handles a child
	// inherits (PROC_THREAD_ATTRIBUTE_HANDLE_LIST).
	if err := windows.SetHandleInformation(windows.Handle(said.Fd()), windows.HANDLE_FLAG_INHERIT, windows.HANDLE_FLAG_INHERIT); err != nil {
		said.Close()
		return false
	}
	argv := []string{full}
	if config != "" {
		argv = append(argv, "--config", config)
	}
	argv = append(argv, "warm-serve", "--socket", socket, "--ready-fd", fmt.Sprint(said.Fd()))
	err = start(full, argv, []*os.File{null, logf, logf}, said, windows.CREATE_BREAKAWAY_FROM_JOB)
	if err != nil { // a job that allows no breakaway: the warm process then ends with the browser
		err = start(full, argv, []*os.File{null, logf, logf}, said, 0)
	}
	said.Close()
	if err != nil {
		return false
	}
	return readyAnswer(ready)
}

// start starts argv detached with files as its standard streams and
// inherit as the one other handle it inherits.
func start(full string, argv []string, files []*os.File, inherit *os.File, flags uint32) error {
	p, err := os.StartProcess(full, argv, &os.ProcAttr{
		Files: files,
		Sys: &syscall.SysProcAttr{
			CreationFlags:              flags | windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP,
			AdditionalInheritedHandles: []syscall.Handle{syscall.Handle(inherit.Fd())},
		},
	})
	if err != nil {
		return err
	}
	return p.Release()
}

// openLog opens the warm process's log, emptied, refusing a link or
// junction in its place (Windows has no O_NOFOLLOW; the folder is this
// user's, see warm.Private).
func openLog(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a file", path)
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
}

// readyAnswer waits at most readyWait for the warm process's byte on
// ready: an anonymous pipe has no deadlines on Windows, so the read runs
// aside and is left behind when the time is up (this program then
// serves the message itself and ends).
func readyAnswer(ready *os.File) bool {
	answer := make(chan byte, 1)
	go func() {
		b := make([]byte, 1)
		n, _ := ready.Read(b) // one byte when ready or taken; EOF when it ended
		if n == 1 {
			answer <- b[0]
		}
		close(answer)
	}()
	select {
	case b := <-answer:
		return b == warm.ReadyServing || b == warm.ReadyTaken
	case <-time.After(readyWait):
		return false
	}
}
