// Package pathform parses the path strings that arrive from the browser into
// a cleaned, absolute form, for POSIX and Windows alike, without any I/O.
//
// It is the first, purely lexical step of path handling: the fact resolver
// resolves symlinks, junctions and short names on the result, and the
// executor acts on that result, never on the raw input. Every rejection is an
// *Error whose cause is one of the Err* sentinels below, so callers and
// tests can use errors.Is; the engine maps it to INVALID_REQUEST.
//
// Rules for both flavours:
//   - The path must be absolute. Nothing is expanded: "~", "~user",
//     "$HOME/x" and "%USERPROFILE%\x" are relative paths and are rejected.
//   - Percent-encoding is never decoded: "%2e%2e" is a literal name, as are
//     fullwidth dots "．．".
//   - The empty string, invalid UTF-8, and control characters
//     (U+0000–U+001F, U+007F) are rejected.
//   - A path is at most MaxPath bytes and each name at most MaxName units
//     (bytes on POSIX, UTF-16 code units on Windows).
//   - "." and ".." are resolved lexically, before any symlink is followed:
//     "/a/link/../b" is "/a/b" whatever "link" points to. ".." at the root
//     stays at the root.
//
// POSIX rules:
//   - The path starts with "/" and is cleaned with path.Clean semantics.
//   - A backslash is an ordinary character in a name.
//
// Windows rules:
//   - "\" and "/" are both separators; Clean uses "\". "D:\x" and "D:/x" are
//     the same path, and the drive letter is upper-cased.
//   - A path is either "D:\…" or a UNC path "\\server\share\…" (a workspace
//     may live on a share; the volume is then "\\server\share"). ".." never
//     climbs above the share.
//   - Drive-relative "D:x", rooted "\x" without a drive, "\\server" without
//     a share, and an empty or dot share are rejected.
//   - Device and verbatim prefixes "\\?\", "\\.\" and "\??\" are rejected:
//     they switch off the normalisation this package relies on.
//   - Reserved device names are rejected as any name, in any case, with or
//     without an extension or trailing spaces: CON, PRN, AUX, NUL,
//     COM0–COM9, LPT0–LPT9, COM¹ COM² COM³, LPT¹ LPT² LPT³, CONIN$, CONOUT$.
//   - A name ending in a dot or a space is rejected, because Windows strips
//     them and two spellings would name one file (".. " would become "..").
//   - A colon after the volume is rejected: it selects an alternate data
//     stream ("file.txt:stream", "file::$DATA").
//   - The characters < > " | ? * are rejected.
//   - Names compare case-insensitively in Within; 8.3 short names
//     ("PROGRA~1") cannot be recognised lexically and are left to the
//     resolver.
package pathform
