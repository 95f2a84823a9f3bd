// Command dbtree is a test program of e2e/wine, built for Windows and
// placed in the Wine prefix's System32 so that run_command may run it.
//
//	dbtree tree       starts a child (dbtree beat) and waits for it
//	dbtree beat       appends a byte to beat.txt in its folder every 50 ms
//	dbtree hold FILE  opens FILE, prints "held", keeps it open until stdin ends
package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		os.Exit(2)
	}
	switch os.Args[1] {
	case "tree":
		exe, _ := os.Executable()
		cmd := exec.Command(exe, "beat")
		if err := cmd.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		cmd.Wait()
	case "beat":
		for range 1200 {
			f, err := os.OpenFile("beat.txt", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			if err == nil {
				f.Write([]byte{'.'})
				f.Close()
			}
			time.Sleep(50 * time.Millisecond)
		}
	case "hold":
		f, err := os.Open(os.Args[2])
		if err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("held")
		io.Copy(io.Discard, os.Stdin)
		f.Close()
	}
}
