package desktop

import (
	"bufio"
	"errors"
	"fmt"
	"strings"
)

// Entry is the [Desktop Entry] group of a .desktop file (the freedesktop
// Desktop Entry Specification), as far as starting an application needs.
type Entry struct {
	Type     string
	Name     string
	Exec     string
	TryExec  string
	Icon     string
	Hidden   bool
	Terminal bool
	// Path is the file the entry was read from (the %k field code).
	Path string
}

// maxEntry caps a .desktop file's size.
const maxEntry = 64 << 10

// ErrEntry reports a .desktop file or Exec line that does not follow the
// specification; DeskBridge starts nothing from it.
var ErrEntry = errors.New("desktop: invalid desktop entry")

// ParseEntry reads the [Desktop Entry] group of a .desktop file. Keys with
// a locale ("Name[de]") and other groups are skipped; a line that is not a
// comment, a group header or key=value is an error.
func ParseEntry(text string) (Entry, error) {
	if len(text) > maxEntry {
		return Entry{}, fmt.Errorf("%w: over %d bytes", ErrEntry, maxEntry)
	}
	var e Entry
	group, seen := "", map[string]bool{}
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), maxEntry)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || line[0] == '#':
			continue
		case line[0] == '[':
			if !strings.HasSuffix(line, "]") {
				return e, fmt.Errorf("%w: group header %q", ErrEntry, line)
			}
			group = line[1 : len(line)-1]
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return e, fmt.Errorf("%w: line %q", ErrEntry, line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if group != "Desktop Entry" || strings.Contains(k, "[") {
			continue
		}
		if seen[k] {
			return e, fmt.Errorf("%w: key %s twice", ErrEntry, k)
		}
		seen[k] = true
		if err := e.set(k, v); err != nil {
			return e, err
		}
	}
	if err := sc.Err(); err != nil {
		return e, fmt.Errorf("%w: %v", ErrEntry, err)
	}
	return e, nil
}

// set stores one key's value, unescaped (\s \n \t \r \\).
func (e *Entry) set(k, v string) error {
	u, err := unescapeValue(v)
	if err != nil {
		return err
	}
	switch k {
	case "Type":
		e.Type = u
	case "Name":
		e.Name = u
	case "Exec":
		e.Exec = u
	case "TryExec":
		e.TryExec = u
	case "Icon":
		e.Icon = u
	case "Hidden":
		e.Hidden = u == "true"
	case "Terminal":
		e.Terminal = u == "true"
	}
	return nil
}

// unescapeValue undoes the key file format's escapes of a string value.
func unescapeValue(v string) (string, error) {
	if !strings.Contains(v, `\`) {
		return v, nil
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		if v[i] != '\\' {
			b.WriteByte(v[i])
			continue
		}
		if i+1 == len(v) {
			return "", fmt.Errorf("%w: value ends in a backslash", ErrEntry)
		}
		i++
		switch v[i] {
		case 's':
			b.WriteByte(' ')
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\':
			b.WriteByte('\\')
		default: // left for the Exec quoting rules (\" \` \$)
			b.WriteByte('\\')
			b.WriteByte(v[i])
		}
	}
	return b.String(), nil
}

// SplitExec splits an Exec value into its arguments by the
// specification's quoting rules: arguments are separated by spaces; a
// double-quoted argument may hold any character, with \" \` \$ and \\
// escaping the character after the backslash; outside quotes a reserved
// character (a quote, backslash, or one of > < ~ | & ; $ * ? # ( ) `) is
// an error, as the specification requires it quoted. No shell ever reads
// the result.
func SplitExec(exec string) ([]string, error) {
	var args []string
	var cur strings.Builder
	in, started := false, false
	for i := 0; i < len(exec); i++ {
		c := exec[i]
		switch {
		case in && c == '"':
			in = false
		case in && c == '\\':
			if i+1 == len(exec) || !strings.ContainsRune("\"`$\\", rune(exec[i+1])) {
				return nil, fmt.Errorf("%w: Exec: bad escape inside quotes", ErrEntry)
			}
			i++
			cur.WriteByte(exec[i])
		case in:
			cur.WriteByte(c)
		case c == ' ' || c == '\t':
			if started {
				args = append(args, cur.String())
				cur.Reset()
				started = false
			}
			continue
		case c == '"':
			in = true
		case strings.IndexByte("'\\><~|&;$*?#()`\n", c) >= 0:
			return nil, fmt.Errorf("%w: Exec: reserved character %q outside quotes", ErrEntry, c)
		default:
			cur.WriteByte(c)
		}
		started = true
	}
	if in {
		return nil, fmt.Errorf("%w: Exec: unterminated quote", ErrEntry)
	}
	if started {
		args = append(args, cur.String())
	}
	if len(args) == 0 || args[0] == "" {
		return nil, fmt.Errorf("%w: Exec names no program", ErrEntry)
	}
	return args, nil
}

// Command returns the argument vector that starts e with files (paths or
// URLs): the Exec line split by SplitExec, its field codes expanded
// (%f %u: the first file, %F %U: every file, each one argument; %i: the
// icon; %c: the name; %k: the entry's file; %%: a percent sign; the
// deprecated %d %D %n %N %v %m: nothing). An entry whose Exec takes no
// file gets files appended. Any other field code is ErrEntry; a file is
// only ever one whole argument, never spliced into another or read by a
// shell.
func (e Entry) Command(files []string) ([]string, error) {
	args, err := SplitExec(e.Exec)
	if err != nil {
		return nil, err
	}
	var out []string
	took := false
	for i, a := range args {
		switch a {
		case "%F", "%U", "%f", "%u":
			if i == 0 || took {
				// A file never becomes the program, and appears once: the
				// specification allows one file field code per line.
				return nil, fmt.Errorf("%w: Exec: field code %s as the program or twice", ErrEntry, a)
			}
			if (a == "%f" || a == "%u") && len(files) > 1 {
				return nil, fmt.Errorf("%w: the application takes one file and was given %d", ErrEntry, len(files))
			}
			out, took = append(out, files...), true
			continue
		case "%i":
			if e.Icon != "" {
				out = append(out, "--icon", e.Icon)
			}
			continue
		}
		s, err := e.expand(a)
		if err != nil {
			return nil, err
		}
		if i == 0 && s == "" {
			return nil, fmt.Errorf("%w: Exec names no program", ErrEntry)
		}
		out = append(out, s)
	}
	if !took {
		out = append(out, files...)
	}
	return out, nil
}

// expand replaces the field codes inside one argument that stand for no
// file.
func (e Entry) expand(a string) (string, error) {
	if !strings.Contains(a, "%") {
		return a, nil
	}
	var b strings.Builder
	for i := 0; i < len(a); i++ {
		if a[i] != '%' {
			b.WriteByte(a[i])
			continue
		}
		if i+1 == len(a) {
			return "", fmt.Errorf("%w: Exec: a lone %%", ErrEntry)
		}
		i++
		switch a[i] {
		case '%':
			b.WriteByte('%')
		case 'c':
			b.WriteString(e.Name)
		case 'k':
			b.WriteString(e.Path)
		case 'd', 'D', 'n', 'N', 'v', 'm':
		default:
			return "", fmt.Errorf("%w: Exec: field code %%%c inside an argument", ErrEntry, a[i])
		}
	}
	return b.String(), nil
}
