#!/bin/sh
# bench-search.sh — wsview.Search, and a whole web_agent_context round
# through Host.Handle (engine BenchmarkAgentSearch), beside ripgrep on a copy of the Go
# toolchain's source tree, with the same rules on both sides: .gitignore
# files honoured without a git repository, hidden files searched, .git
# skipped, binary files skipped, files over 1 MiB skipped, links not
# followed, a literal (fixed-string) query.
#
# Usage: scripts/bench-search.sh [QUERY] [RUNS]   (needs ripgrep: apt-get install ripgrep)
set -eu
query=${1:-xyzzy}
runs=${2:-10}
cd "$(dirname "$0")/.."
command -v rg >/dev/null || { echo "rg not found: apt-get install ripgrep" >&2; exit 1; }

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
cp -R "$(go env GOROOT)/src" "$tree/src"
echo "tree: $(find "$tree/src" -type f | wc -l) files, $(du -sh "$tree/src" | cut -f1); query: $query; $(nproc) CPUs"

# Warm the page cache for both.
rg -F --no-require-git --hidden -g '!.git' --max-filesize 1M -c -- "$query" "$tree/src" >/dev/null || true

now() { date +%s%N; }
start=$(now)
i=0
while [ "$i" -lt "$runs" ]; do
	rg -F --no-require-git --hidden -g '!.git' --max-filesize 1M -n -- "$query" "$tree/src" >/dev/null || true
	i=$((i + 1))
done
rg_ms=$(( ($(now) - start) / runs / 1000000 ))
rg_n=$(rg -F --no-require-git --hidden -g '!.git' --max-filesize 1M -n -- "$query" "$tree/src" | wc -l || true)

out=$(DESKBRIDGE_BENCH_TREE="$tree/src" DESKBRIDGE_BENCH_QUERY="$query" \
	go test -run '^$' -bench '^BenchmarkSearchTree$' -benchtime "${runs}x" ./sandbox/wsview/)
ws_ms=$(echo "$out" | awk '/^BenchmarkSearchTree/ { printf "%d", $3 / 1000000 }')
ws_n=$(echo "$out" | awk '/^BenchmarkSearchTree/ { for (i = 1; i <= NF; i++) if ($(i+1) == "matches") printf "%d", $i }')

out=$(DESKBRIDGE_BENCH_TREE="$tree/src" DESKBRIDGE_BENCH_QUERY="$query" \
	go test -run '^$' -bench '^BenchmarkAgentSearch$' -benchtime "${runs}x" ./engine/)
h_ms=$(echo "$out" | awk '/^BenchmarkAgentSearch/ { printf "%d", $3 / 1000000 }')
h_n=$(echo "$out" | awk '/^BenchmarkAgentSearch/ { for (i = 1; i <= NF; i++) if ($(i+1) == "matches") printf "%d", $i }')

ratio() { awk -v a="$1" -v b="$rg_ms" 'BEGIN { printf "%.2fx", a / (b ? b : 1) }'; }
echo "ripgrep:       ${rg_ms} ms per search, ${rg_n} matching lines"
echo "wsview.Search: ${ws_ms} ms per search, ${ws_n} matches ($(ratio "$ws_ms"))"
echo "Host.Handle:   ${h_ms} ms per round, ${h_n} matches ($(ratio "$h_ms"))"
