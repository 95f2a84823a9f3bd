//go:build !windows

package proc

const nullDevice = "/dev/null"

func systemPath() string {
	return "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:/usr/local/go/bin"
}
