package pathform

import (
	"strings"
	"unicode/utf16"
)

// parseWindows parses s, already checked by checkText, as a Win32 path.
func parseWindows(s string) (Path, error) {
	t := strings.ReplaceAll(s, "/", `\`)
	volume, rest, err := splitVolume(s, t)
	if err != nil {
		return Path{}, err
	}
	names := strings.Split(rest, `\`)
	for _, n := range names {
		if err := checkName(n); err != nil {
			return Path{}, err
		}
	}
	return build(Windows, volume, cleanElems(names)), nil
}

// splitVolume splits t, the input in with "\" as its only separator, into
// the volume and the rest after the volume's separator. Messages quote in.
func splitVolume(in, t string) (volume, rest string, err error) {
	switch {
	case strings.HasPrefix(t, `\??\`):
		return "", "", errDevice(in)
	case strings.HasPrefix(t, `\\`):
		return splitUNC(in, t)
	case len(t) >= 2 && t[1] == ':' && isASCIILetter(t[0]):
		return splitDrive(in, t)
	case t[0] == '\\':
		return "", "", invalid(ErrNoDrive,
			`The path %s has no drive letter; send it with its drive, such as D:\Projects\Demo.`, clip(in))
	}
	return "", "", invalid(ErrRelative,
		`The path %s is not absolute (~, $VAR and %%VAR%% are not expanded); send an absolute path such as D:\Projects\Demo\a.txt.`, clip(in))
}

// splitDrive splits "D:\rest" into "D:" and "rest".
func splitDrive(in, t string) (volume, rest string, err error) {
	if len(t) == 2 || t[2] != '\\' {
		return "", "", invalid(ErrDriveRel,
			`The path %s has no backslash after the drive colon, which means that drive's current folder; send it as %c:\folder.`, clip(in), upperASCII(t[0]))
	}
	return string(upperASCII(t[0])) + ":", t[3:], nil
}

// splitUNC splits `\\server\share\rest` into `\\server\share` and "rest".
func splitUNC(in, t string) (volume, rest string, err error) {
	server, after, hasShare := strings.Cut(t[2:], `\`)
	share, rest, _ := strings.Cut(after, `\`)
	switch {
	case server == "." || server == "?":
		return "", "", errDevice(in)
	case server == "" || server == ".." || !hasShare || share == "" || share == "." || share == "..":
		return "", "", invalid(ErrUNC,
			`The network path %s lacks a server or share name; send it as \\server\share\folder.`, clip(in))
	}
	for _, n := range []string{server, share} {
		if err := checkName(n); err != nil {
			return "", "", err
		}
	}
	return `\\` + server + `\` + share, rest, nil
}

// errDevice is the error for a device or verbatim prefix.
func errDevice(in string) error {
	return invalid(ErrDevice,
		`The path %s starts with a device prefix such as \\?\ or \\.\, which is not accepted; send a plain path such as D:\Projects\Demo.`, clip(in))
}

// checkName applies the Windows rules for one name; "", "." and ".." pass.
func checkName(n string) error {
	switch {
	case n == "" || n == "." || n == "..":
		return nil
	case utf16Len(n) > MaxName:
		return invalid(ErrTooLong, "The name %s is longer than %d characters; use a shorter name.", clip(n), MaxName)
	case strings.ContainsAny(n, `<>"|?*`):
		return invalid(ErrForbidden, `The name %s contains a character Windows forbids (< > " | ? *); remove it.`, clip(n))
	case strings.Contains(n, ":"):
		return invalid(ErrStream, "The name %s contains a colon, which selects an alternate data stream; remove it.", clip(n))
	case strings.HasSuffix(n, ".") || strings.HasSuffix(n, " "):
		return invalid(ErrTrailing, "The name %s ends in a dot or a space, which Windows removes; send the name without it.", clip(n))
	case isReserved(n):
		return invalid(ErrReserved, "The name %s is a reserved Windows device name; choose another name.", clip(n))
	}
	return nil
}

// isReserved reports whether name is a Windows device name. As Win32 does,
// it ignores everything from the first dot or colon and trailing spaces:
// "con", "CON.txt", "Con .tar.gz" and "NUL:x" are all reserved.
func isReserved(name string) bool {
	base := name
	if i := strings.IndexAny(base, ".:"); i >= 0 {
		base = base[:i]
	}
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) < 4 || (base[:3] != "COM" && base[:3] != "LPT") {
		return false
	}
	switch base[3:] {
	case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "\u00b9", "\u00b2", "\u00b3":
		return true
	}
	return false
}

// utf16Len returns the length of s in UTF-16 code units, the unit of
// Windows name limits.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// isASCIILetter reports whether c is A–Z or a–z.
func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// upperASCII upper-cases an ASCII letter.
func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}
