# Shared settings of the Wine scripts (sourced, not run).
#
# WINEPREFIX  the Wine prefix the tests run in; default a fresh one under
#             bin/wine, never the user's own ~/.wine.
# WINE        the 64-bit Wine loader (Debian's wine64 lives in /usr/lib/wine).
# WINE_OUT    where the shim, the test binaries and deskbridge.exe are built.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export PATH="$PATH:/usr/lib/wine"
export WINE_OUT="${WINE_OUT:-$root/bin/wine}"
export WINEPREFIX="${WINEPREFIX:-$WINE_OUT/prefix}"
export WINEARCH=win64
export WINEDEBUG="${WINEDEBUG:--all}"
# No desktop, no Mono/Gecko installer dialogs during wineboot.
export WINEDLLOVERRIDES="${WINEDLLOVERRIDES:-mscoree,mshtml=}"
# No display (test.sh then gives Wine its own Xvfb, never the user's).
export DISPLAY=
WINE="${WINE:-$(command -v wine64 || true)}"
export WINE
GO="${GO:-go}"
