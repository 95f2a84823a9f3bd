package wine

import (
	"sync"

	"golang.org/x/sys/windows"
)

// running looks for ntdll's wine_get_version export once.
var running = sync.OnceValue(func() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
})
