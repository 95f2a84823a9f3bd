package pathform

import "strings"

// parsePOSIX parses s, already checked by checkText, as a POSIX path.
// The result equals path.Clean(s).
func parsePOSIX(s string) (Path, error) {
	if s[0] != '/' {
		return Path{}, invalid(ErrRelative,
			"The path %s is not absolute (~ and $VAR are not expanded); send an absolute path such as /home/ann/Demo/a.txt.", clip(s))
	}
	names := strings.Split(s[1:], "/")
	for _, n := range names {
		if len(n) > MaxName {
			return Path{}, invalid(ErrTooLong, "The name %s is longer than %d bytes; use a shorter name.", clip(n), MaxName)
		}
	}
	return build(POSIX, "", cleanElems(names)), nil
}
