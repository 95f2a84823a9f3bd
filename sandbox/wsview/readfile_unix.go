//go:build unix

package wsview

import (
	"os"

	"golang.org/x/sys/unix"
)

// dirFD returns the descriptor of an open folder for openat.
func dirFD(f *os.File) int { return int(f.Fd()) }

// readFileIn reads the regular file name in the folder d into buf, at most
// limit bytes of it: large reports a file over the limit, of which data is
// the head; ok a file read. The hot path of Search: one openat relative to
// the folder with O_NOFOLLOW (a link swapped in is refused by the kernel;
// name is a single element from the folder listing, so it cannot leave d),
// fstat, read and close, without the poller registration of an *os.File.
func readFileIn(d *dirNode, name string, limit int, buf []byte) (data []byte, large, ok bool) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK|unix.O_NOCTTY, 0)
	if err != nil {
		return buf, false, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Nlink > 1 {
		return buf, false, false // hard links may be shared with files outside
	}
	if need := int(min(st.Size, int64(limit))) + 1; cap(buf) < need {
		buf = make([]byte, 0, max(need, 64<<10))
	}
	buf = buf[:cap(buf)]
	n := 0
	for n <= limit {
		m, err := unix.Read(fd, buf[n:min(len(buf), limit+1)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return buf[:0], false, false
		}
		if m == 0 {
			return buf[:n], false, true
		}
		n += m
		if n == len(buf) && n <= limit {
			buf = append(buf, 0)[:cap(buf)] // the file grew: make room
		}
	}
	return buf[:limit], true, true
}
