package install

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
)

// WarmHostName is the file name of deskbridge-host, the program install
// registers beside deskbridge on Linux and macOS (docs/warm.md).
const WarmHostName = "deskbridge-host"

// WarmHost is deskbridge-host beside the deskbridge binary self, when
// this platform has warm processes and it is there as a regular,
// executable file; else "".
func WarmHost(self string) string {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		return ""
	}
	p := filepath.Join(filepath.Dir(self), WarmHostName)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return ""
	}
	return p
}

// registered is what install registers for the deskbridge binary self:
// deskbridge-host beside it when warm is wanted and it is there, else
// self.
func registered(self string, warm bool) string {
	if w := WarmHost(self); warm && w != "" {
		return w
	}
	return self
}

// startsSelf reports whether a manifest that starts p starts self: p is
// self, or deskbridge-host beside it.
func (in *Installer) startsSelf(p, self string) bool {
	return in.samePath(p, self) || (in.OS != "windows" && in.samePath(p, path.Join(path.Dir(self), WarmHostName)))
}
