#!/usr/bin/env bash
# Prepares a Wine prefix that runs DeskBridge's Windows build: builds the
# ProcessPrng shim (processprng.c, see its comment for why), creates the
# prefix with wineboot and copies the shim into its system32. Idempotent.
set -euo pipefail
. "$(dirname "$0")/env.sh"
if [ -z "$WINE" ]; then
  echo "setup.sh: wine64 not found (Debian package wine64)" >&2; exit 1
fi
cc=x86_64-w64-mingw32-gcc
command -v "$cc" >/dev/null || { echo "setup.sh: $cc not found (Debian package gcc-mingw-w64-x86-64-win32)" >&2; exit 1; }
mkdir -p "$WINE_OUT"
dll="$WINE_OUT/bcryptprimitives.dll"
src="$root/scripts/wine/processprng.c"
def="$root/scripts/wine/processprng.def"
if [ ! -f "$dll" ] || [ "$src" -nt "$dll" ] || [ "$def" -nt "$dll" ]; then
  "$cc" -shared -O2 -o "$dll" "$src" "$def" -ladvapi32
fi
if [ ! -f "$WINEPREFIX/system.reg" ]; then
  mkdir -p "$WINEPREFIX"
  "$WINE" wineboot --init >/dev/null 2>&1
  wineserver -w 2>/dev/null || true
fi
cp "$dll" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
echo "wine prefix ready: $WINEPREFIX ($("$WINE" --version))"
