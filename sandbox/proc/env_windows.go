//go:build windows

package proc

import "os"

const nullDevice = "NUL"

func systemPath() string {
	root := os.Getenv("SystemRoot")
	if root == "" {
		root = `C:\Windows`
	}
	return root + `\System32;` + root + `;` + root + `\System32\Wbem;` +
		`C:\Program Files\Git\cmd;C:\Program Files\Go\bin;C:\Program Files\nodejs`
}
