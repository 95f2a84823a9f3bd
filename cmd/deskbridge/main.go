// Command deskbridge is the DeskBridge Chrome Native Messaging host.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "deskbridge: not built yet")
	os.Exit(2)
}
