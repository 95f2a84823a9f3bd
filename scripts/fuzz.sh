#!/usr/bin/env bash
# make fuzz: runs every fuzz target of the module for FUZZTIME each (a
# time, 10s, or a count of executions, 500x), stopping at the first that
# fails.
#
# Each package's test binary is built once, instrumented for fuzzing
# (`go test -c -fuzz`), and that one binary lists its targets and fuzzes
# each of them in turn, from the package's folder as `go test -fuzz` runs
# it: a failing input is written to the package's testdata/fuzz, and the
# inputs found go to the go command's own fuzz cache. `go test -fuzz` per
# target would link the binary again for every target, and list the
# targets with one more build: 80 links for 52 targets, where this takes
# one per package (28).
#
# Arguments, all optional: package patterns (default: every package whose
# test files declare a Fuzz function).
set -euo pipefail
cd "$(dirname "$0")/.."
GO="${GO:-go}"
FUZZTIME="${FUZZTIME:-10s}"
if [ $# -eq 0 ]; then
  mapfile -t dirs < <(git grep -l '^func Fuzz' -- '*_test.go' | xargs -n1 dirname | sort -u | sed 's|^|./|')
  set -- "${dirs[@]}"
fi
cache="$("$GO" env GOCACHE)/fuzz"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$GO" list -f '{{.ImportPath}} {{.Dir}}' "$@" | while read -r pkg dir; do
  bin="$out/${pkg##*/}.test"
  "$GO" test -c -fuzz . -o "$bin" "$pkg"
  for f in $(cd "$dir" && "$bin" -test.list '^Fuzz'); do
    echo "== $pkg $f"
    # The flags go test -fuzz gives the binary (go help testflag).
    (cd "$dir" && "$bin" -test.paniconexit0 -test.run '^$' -test.fuzz "^$f\$" \
      -test.fuzztime "$FUZZTIME" -test.fuzzcachedir "$cache/$pkg") || exit 1
  done
done
