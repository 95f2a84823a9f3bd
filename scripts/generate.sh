#!/bin/sh
# generate.sh [DIR]: write the generated artefacts into DIR (default: the
# repository itself), from what `deskbridge schema` prints:
#   extension/schemas.json   the argument schemas the reference extension loads
#   docs/protocol.md         the actions table between
#                            <!-- BEGIN GENERATED: actions --> and <!-- END GENERATED -->
# `make check-generated` writes them into a temporary DIR and diffs.
set -eu
cd "$(dirname "$0")/.."
out=$(cd "${1:-.}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${GO:-go} build -o "$tmp/deskbridge" ./cmd/deskbridge
"$tmp/deskbridge" schema > "$tmp/schemas.json"
"$tmp/deskbridge" schema --markdown > "$tmp/actions.md"
awk -v table="$tmp/actions.md" '
  $0 == "<!-- BEGIN GENERATED: actions -->" {
    print; while ((getline line < table) > 0) print line
    skip = 1; found = 1; next
  }
  $0 == "<!-- END GENERATED -->" { skip = 0 }
  !skip { print }
  END { if (!found || skip) { print "generate.sh: docs/protocol.md lacks the actions markers" > "/dev/stderr"; exit 1 } }
' docs/protocol.md > "$tmp/protocol.md"
mkdir -p "$out/extension" "$out/docs"
cp "$tmp/schemas.json" "$out/extension/schemas.json"
cp "$tmp/protocol.md" "$out/docs/protocol.md"
