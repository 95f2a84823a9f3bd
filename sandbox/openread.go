package sandbox

import "os"

// OpenRead opens the regular file rel of root for reading, through the
// checked walk (no symlink as its last component, no swap after the
// check, no folder, device or file with several hard links), and returns
// it with its size. A failure is a *PathError with Op "read".
func OpenRead(root *os.Root, rel string) (_ *os.File, _ int64, err error) {
	defer wrap("read", rel, &err)
	f, fi, err := openRegular(root, rel, "read")
	if err != nil {
		return nil, 0, err
	}
	return f, fi.Size(), nil
}
