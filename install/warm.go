package install

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"
)

// WarmHostName is the file name of deskbridge-host, the program install
// registers beside deskbridge (docs/warm.md); deskbridge-host.exe on
// Windows.
const WarmHostName = "deskbridge-host"

// WarmHost is deskbridge-host beside the deskbridge binary self, when
// this platform has warm processes and it is there as a regular,
// executable file; else "".
func WarmHost(self string) string {
	name := WarmHostName
	switch runtime.GOOS {
	case "linux", "darwin":
	case "windows":
		name += ".exe"
	default:
		return ""
	}
	p := filepath.Join(filepath.Dir(self), name)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || (runtime.GOOS != "windows" && fi.Mode()&0o111 == 0) {
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
	if in.OS == "windows" {
		dir := self[:strings.LastIndexAny(self, `\/`)+1]
		return in.samePath(p, self) || in.samePath(p, dir+WarmHostName+".exe")
	}
	return in.samePath(p, self) || in.samePath(p, path.Join(path.Dir(self), WarmHostName))
}
