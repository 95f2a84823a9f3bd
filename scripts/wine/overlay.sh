#!/usr/bin/env bash
# Writes a `go build -overlay` file that works around a Wine 8 bug, for the
# Wine test binaries only (never for a release build): prints its path.
#
# The bug: Go's os.RemoveAll / os.Remove on Windows delete through
# internal/syscall/windows.Deleteat, which calls NtSetInformationFile with
# FileDispositionInformationEx. Real Windows (10 1709 and later) does it;
# Wine 8 answers STATUS_NOT_IMPLEMENTED (0xC0000002), and Go falls back to
# the old FileDispositionInformation only on STATUS_INVALID_INFO_CLASS,
# STATUS_INVALID_PARAMETER and STATUS_NOT_SUPPORTED, so every removal of a
# file fails with "Invalid function" under Wine. The overlay is a copy of
# the installed Go's own at_windows.go with STATUS_NOT_IMPLEMENTED added to
# that fallback list, made with sed at test time so that it always matches
# the Go that builds the tests.
set -euo pipefail
. "$(dirname "$0")/env.sh"
goroot="$("$GO" env GOROOT)"
src="$goroot/src/internal/syscall/windows/at_windows.go"
dir="$WINE_OUT/overlay"
mkdir -p "$dir"
# Not a .go name: the folder is inside the module and must not become a package.
dst="$dir/at_windows.go.overlay"
sed 's/^\(\t*\)case STATUS_INVALID_INFO_CLASS, /\1case NTStatus(0xC0000002), STATUS_INVALID_INFO_CLASS, /' "$src" >"$dst"
if cmp -s "$src" "$dst"; then
  echo "overlay.sh: $src no longer has the fallback case this workaround edits;" >&2
  echo "overlay.sh: check whether Go or Wine fixed the delete bug (see docs/windows.md)" >&2
  exit 1
fi
printf '{"Replace":{"%s":"%s"}}\n' "$src" "$dst" >"$dir/overlay.json"
echo "$dir/overlay.json"
