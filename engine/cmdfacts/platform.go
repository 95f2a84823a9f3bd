package cmdfacts

import (
	"os"
	"path"
	"strings"
)

// Platform says where programs may be found and how their names compare on
// one operating system. Programs resolve from Dirs only: never from the
// workspace, the working folder, or a PATH given by a request.
type Platform struct {
	// Dirs are the absolute system folders searched, in order.
	Dirs []string
	// Exts are the suffixes tried after a bare name (".exe" on Windows).
	Exts []string
	// Refused are suffixes of programs that never run (".bat", ".cmd").
	Refused []string
	// Windows selects case-folding, `\` separators and drive letters.
	Windows bool
	// IsProgram reports whether an absolute path is a runnable file;
	// nil means a regular file on the real file system.
	IsProgram func(abs string) bool
}

// Unix is the platform of Linux and macOS.
func Unix() Platform {
	return Platform{Dirs: []string{
		"/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin", "/usr/local/go/bin",
	}}
}

// Windows is the platform of Windows, with systemRoot such as `C:\Windows`.
func Windows(systemRoot string) Platform {
	root := strings.TrimRight(systemRoot, `\/`)
	return Platform{
		Dirs: []string{
			root + `\System32`, root, root + `\System32\Wbem`,
			root + `\System32\WindowsPowerShell\v1.0`,
			`C:\Program Files\Git\cmd`, `C:\Program Files\Go\bin`, `C:\Program Files\nodejs`,
		},
		Exts:    []string{".exe"},
		Refused: []string{".bat", ".cmd"},
		Windows: true,
	}
}

// Name returns the program name that policies compare: the base name,
// lower-case and without ".exe" on Windows.
func (p Platform) Name(program string) string {
	base := p.base(program)
	if !p.Windows {
		return base
	}
	base = strings.ToLower(base)
	return strings.TrimSuffix(base, ".exe")
}

// Resolve returns the absolute path of program in one of the system folders,
// or "" when it is not there. A program given with a folder resolves only
// when that folder is itself one of the system folders.
func (p Platform) Resolve(program string) string {
	if program == "" || p.refused(program) {
		return ""
	}
	if p.hasDir(program) {
		return p.resolveGiven(program)
	}
	for _, dir := range p.Dirs {
		if found := p.find(dir, program); found != "" {
			return found
		}
	}
	return ""
}

func (p Platform) resolveGiven(program string) string {
	dir, file := p.split(program)
	for _, d := range p.Dirs {
		if p.sameDir(d, dir) {
			return p.find(d, file)
		}
	}
	return ""
}

func (p Platform) find(dir, file string) string {
	if file == "" || file == "." || file == ".." {
		return ""
	}
	names := []string{file}
	if p.Windows && !strings.Contains(file, ".") {
		names = nil
		for _, e := range p.Exts {
			names = append(names, file+e)
		}
	}
	for _, n := range names {
		full := p.join(dir, n)
		if !p.refused(n) && p.isProgram(full) {
			return full
		}
	}
	return ""
}

func (p Platform) isProgram(abs string) bool {
	if p.IsProgram != nil {
		return p.IsProgram(abs)
	}
	st, err := os.Stat(abs)
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	return p.Windows || st.Mode().Perm()&0o111 != 0
}

func (p Platform) refused(program string) bool {
	lower := strings.ToLower(strings.TrimRight(program, ". "))
	for _, s := range p.Refused {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	return false
}

func (p Platform) slashed(s string) string {
	if p.Windows {
		return strings.ReplaceAll(s, `\`, "/")
	}
	return s
}

func (p Platform) hasDir(program string) bool {
	return strings.Contains(p.slashed(program), "/") ||
		(p.Windows && strings.Contains(program, ":"))
}

func (p Platform) base(program string) string {
	_, file := p.split(program)
	return file
}

func (p Platform) split(program string) (dir, file string) {
	s := p.slashed(program)
	i := strings.LastIndex(s, "/")
	if p.Windows && i < 0 {
		i = strings.LastIndex(s, ":")
	}
	if i < 0 {
		return "", s
	}
	return s[:i+1], s[i+1:]
}

func (p Platform) sameDir(system, given string) bool {
	a := path.Clean(p.slashed(system))
	b := p.slashed(given)
	if strings.Contains(b, "/../") || strings.Contains(b, "/./") || strings.HasPrefix(b, ".") {
		return false
	}
	b = path.Clean(b)
	if p.Windows {
		return strings.EqualFold(a, b)
	}
	return a == b
}

func (p Platform) join(dir, file string) string {
	if p.Windows {
		return strings.TrimRight(dir, `\`) + `\` + file
	}
	return path.Join(dir, file)
}
