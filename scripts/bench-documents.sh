#!/bin/sh
# bench-documents.sh — convert_document_to_markdown beside pandoc and
# pdftotext, in one run on the same documents: a 100-page DOCX (written by
# pandoc from a generated Markdown source of about 500 words a page) and
# a 300-page PDF (generated, text pages). Each tool runs RUNS times
# (default 3) and the median is printed with pages per second. DeskBridge
# is timed end to end through `deskbridge call` (host start, policy,
# confined converter child, the whole Markdown written to a destination).
#
# Usage: scripts/bench-documents.sh [RUNS]   (needs pandoc and poppler-utils)
set -eu
runs=${1:-3}
cd "$(dirname "$0")/.."
for tool in pandoc pdftotext; do
	command -v "$tool" >/dev/null || { echo "$tool not found: apt-get install pandoc poppler-utils" >&2; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -trimpath -o "$tmp/deskbridge" ./cmd/deskbridge
mkdir "$tmp/ws" "$tmp/state"
go run ./scripts/docbench -dir "$tmp/ws" -pages 100 -pdf-pages 300
pandoc "$tmp/ws/src.md" -o "$tmp/ws/doc.docx"
cat >"$tmp/config.json" <<JSON
{"workspaces":[{"name":"Bench","path":"$tmp/ws"}],"decision_log":{"path":"$tmp/state/log.jsonl"},"state_dir":"$tmp/state"}
JSON
echo "$(nproc) CPUs; $(pandoc --version | head -1); $(pdftotext -v 2>&1 | head -1)"

now() { date +%s%N; }
# median NAME PAGES COMMAND...: run COMMAND $runs times, print the median.
median() {
	name=$1 pages=$2
	shift 2
	times=""
	i=0
	while [ "$i" -lt "$runs" ]; do
		start=$(now)
		"$@" >/dev/null 2>&1 || { echo "$name failed" >&2; exit 1; }
		times="$times $(($(now) - start))"
		i=$((i + 1))
	done
	m=$(echo $times | tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
	echo "$name: runs(ms)$(for t in $times; do printf ' %d' $((t / 1000000)); done); median $((m / 1000000)) ms; $(awk -v p="$pages" -v m="$m" 'BEGIN {printf "%.1f", p / (m / 1e9)}') pages/s"
}
call() {
	"$tmp/deskbridge" --config "$tmp/config.json" call convert_document_to_markdown \
		"{\"path\":\"$tmp/ws/$1\",\"destination\":\"$tmp/ws/$1.md\"}"
}
median "deskbridge docx" 100 call doc.docx
median "pandoc -t gfm docx" 100 pandoc -t gfm "$tmp/ws/doc.docx" -o "$tmp/pandoc.md"
median "deskbridge pdf" 300 call doc.pdf
median "pdftotext -layout pdf" 300 pdftotext -layout "$tmp/ws/doc.pdf" "$tmp/pdftotext.txt"
