#!/usr/bin/env bash
# make test-windows: runs DeskBridge's Windows build under Wine.
#
#  1. setup.sh: the ProcessPrng shim and a Wine prefix;
#  2. every package's tests cross-compiled for windows/amd64 in one
#     `go test -c` (with the Wine-only overlay of overlay.sh) and run under
#     Wine one package at a time, from the package's folder;
#  3. the binary-level tests of e2e/wine (build tag wine), run on Linux,
#     driving deskbridge.exe under Wine.
#
# deskbridge.exe and deskbridge-host.exe are built first, with the same
# overlay (a Wine test build, never a release): cmd/deskbridge's tests run
# them (DESKBRIDGE_TEST_BINARY, DESKBRIDGE_TEST_HOST_BINARY, as there is no
# Go toolchain inside Wine) and e2e/wine runs deskbridge.exe.
#
# Arguments, all optional: package patterns for step 2 (default ./...).
# WINE_RUN='regexp' narrows step 2 to matching tests, WINE_SKIP_UNIT=1 or
# WINE_SKIP_E2E=1 leaves a step out. See docs/windows.md.
set -euo pipefail
. "$(dirname "$0")/env.sh"
cd "$root"
"$root/scripts/wine/setup.sh"
# One wineserver for the whole run: by default it exits a few seconds after
# its last client, and a program started just then dies with "wine client
# error: recvmsg: Connection reset by peer". Stopped when the run ends.
# A display of the run's own for Wine's X11 driver: the desktop tests
# (sandbox/desktop) create a window, capture the screen and use the
# clipboard, which Wine offers only with a display. Never the user's: a
# fresh Xvfb on a number it picks (-displayfd), stopped when the run ends.
command -v Xvfb >/dev/null || { echo "test-windows: Xvfb not found (Debian package xvfb)" >&2; exit 1; }
mkdir -p "$WINE_OUT"
rm -f "$WINE_OUT/xvfb.display"
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp -noreset 3>"$WINE_OUT/xvfb.display" 2>/dev/null &
xvfb_pid=$!
for _ in $(seq 200); do
  [ -s "$WINE_OUT/xvfb.display" ] && break
  kill -0 "$xvfb_pid" 2>/dev/null || { echo "test-windows: Xvfb exited without a display" >&2; exit 1; }
  sleep 0.1
done
[ -s "$WINE_OUT/xvfb.display" ] || { echo "test-windows: Xvfb named no display in 20 s" >&2; kill "$xvfb_pid"; exit 1; }
# Only the packages in display_pkgs get it: with a display, Wine starts
# its desktop process (explorer.exe), which inherits the first program's
# standard error and outlives it, so a Linux caller that reads that
# program's output through a pipe (e2e/wine) would wait for ever.
xdisplay=":$(tr -d '[:space:]' <"$WINE_OUT/xvfb.display")"
display_pkgs=" github.com/deskbridge/deskbridge/sandbox/desktop "
wineserver -p
trap 'wineserver -k 2>/dev/null || true; kill "$xvfb_pid" 2>/dev/null || true' EXIT
overlay="$("$root/scripts/wine/overlay.sh")"
export GOOS=windows GOARCH=amd64 CGO_ENABLED=0
# internal/testkit/wine checks that it detects Wine: every Wine skip relies on it.
export DESKBRIDGE_EXPECT_WINE=1
pkgs=("${@:-./...}")
failed=()

echo "== building deskbridge.exe"
# Same flags as the test binaries (no -trimpath): the standard library the
# overlay rebuilds is then built once, into the cache, for both.
nice -n 10 "$GO" build -tags nodynamic -overlay "$overlay" -o "$WINE_OUT/deskbridge.exe" ./cmd/deskbridge
# The Windows path of the same file (Wine maps / to drive Z:).
export DESKBRIDGE_TEST_BINARY="Z:${WINE_OUT//\//\\}\\deskbridge.exe"
# deskbridge-host.exe too: cmd/deskbridge's warm tests put it beside the host.
nice -n 10 "$GO" build -overlay "$overlay" -o "$WINE_OUT/deskbridge-host.exe" ./cmd/deskbridge-host
export DESKBRIDGE_TEST_HOST_BINARY="Z:${WINE_OUT//\//\\}\\deskbridge-host.exe"
# And docs/logverify, the verifier that is not DeskBridge (TestSignedHeadsThroughTheBinary).
nice -n 10 "$GO" build -o "$WINE_OUT/logverify.exe" ./docs/logverify
export DESKBRIDGE_TEST_LOGVERIFY="Z:${WINE_OUT//\//\\}\\logverify.exe"

unit() {
  local out="$WINE_OUT/tests"
  rm -rf "$out" && mkdir -p "$out"
  # go test -c -o DIR names each binary after its package's last element,
  # and refuses two packages of one name (internal/testkit/wine, e2e/wine): the
  # n-th package of a name goes to group n, one go test -c per group.
  local -A seen=() group=() group_of=()
  local path dir name n start
  while read -r path dir; do
    name="${path##*/}"
    n="${seen[$name]:-0}"
    seen[$name]=$((n + 1))
    group[$n]+="$path "
    group_of[$path]=$n
  done < <("$GO" list -f '{{.ImportPath}} {{.Dir}}' "${pkgs[@]}")
  echo "== compiling the Windows test binaries"
  start=$SECONDS
  for n in "${!group[@]}"; do
    # shellcheck disable=SC2086 # one word per package
    if ! nice -n 10 "$GO" test -c -overlay "$overlay" -o "$out/$n/" ${group[$n]} >"$out/compile.log" 2>&1; then
      cat "$out/compile.log"; echo "test-windows: compiling the tests failed" >&2; exit 1
    fi
  done
  echo "   compiled in $((SECONDS - start))s"
  local bin log skips
  while read -r path dir; do
    bin="$out/${group_of[$path]}/${path##*/}.test.exe"
    [ -f "$bin" ] || continue
    log="${bin%.exe}.log" start=$SECONDS
    if runpkg "$dir" "$bin" "$log" || { wine_start_failed "$log" && runpkg "$dir" "$bin" "$log"; }; then
      echo "ok    $path $((SECONDS - start))s"
      skips="$(grep -c -- "--- SKIP:" "$log" || true)"
      if [ "$skips" -gt 0 ]; then # each Wine-only reason, with how many tests it skipped
        echo "      $skips skipped; under Wine because:"
        { grep -o "skipped under Wine: .*" "$log" || true; } | sed "s/^skipped under Wine: //" | sort | uniq -c | sed "s/^/      /"
      fi
    else
      grep -v -E '^\s*(=== (RUN|PAUSE|CONT|NAME)|--- (PASS|SKIP))' "$log" || true
      echo "FAIL  $path $((SECONDS - start))s"
      failed+=("$path")
    fi
  done < <("$GO" list -f '{{.ImportPath}} {{.Dir}}' "${pkgs[@]}")
}

# runpkg runs one package's test binary under Wine, its output in log;
# a package of display_pkgs with the run's display (its desktop tests
# then fail, rather than skip, without a screen).
runpkg() {
  local display=
  [[ "$display_pkgs" == *" $path "* ]] && display="$xdisplay"
  (cd "$1" && DISPLAY="$display" DESKBRIDGE_EXPECT_DISPLAY="${display:+1}" \
    nice -n 10 "$WINE" "$2" -test.v -test.count=1 -test.timeout=30m \
    ${WINE_RUN:+-test.run "$WINE_RUN"} >"$3" 2>&1)
}

# wine_start_failed reports (and says) that a run failed because Wine
# could not start a process at all ("fork/exec …: Internal error.", seen
# now and then under load: wine.StartInternalError in docs/windows.md);
# the package is then run once more.
wine_start_failed() {
  grep -q 'fork/exec .*: Internal error\.' "$1" || return 1
  echo "      Wine could not start a process (fork/exec: Internal error.); running the package once more"
}

e2e() {
  echo "== e2e/wine: deskbridge.exe under Wine"
  if ! GOOS= GOARCH= DESKBRIDGE_EXE="$WINE_OUT/deskbridge.exe" \
    nice -n 10 "$GO" test -tags wine -count=1 ./e2e/wine/; then
    failed+=("e2e/wine")
  fi
}

[ -n "${WINE_SKIP_UNIT:-}" ] || unit
[ -n "${WINE_SKIP_E2E:-}" ] || e2e
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-windows: FAIL under Wine: ${failed[*]}" >&2
  exit 1
fi
echo "test-windows: ok"
