#!/bin/sh
# Whole-process benchmarks: builds deskbridge and the echo floor, installs
# the reference MCP filesystem server when node and npm are present, and
# runs cmd/benchhost. Usage: scripts/bench.sh [benchhost flags]
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -trimpath -o "$tmp/deskbridge" ./cmd/deskbridge
go build -trimpath -o "$tmp/deskbridge-host" ./cmd/deskbridge-host
go build -trimpath -o "$tmp/echohost" ./testdata/echohost
mcp=""
if command -v node >/dev/null && command -v npm >/dev/null; then
	if (cd "$tmp" && npm install --silent --no-audit --no-fund @modelcontextprotocol/server-filesystem >/dev/null 2>&1); then
		mcp="$tmp/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"
	fi
fi
go run ./cmd/benchhost -host "$tmp/deskbridge" -echo "$tmp/echohost" -warm "$tmp/deskbridge-host" ${mcp:+-mcp "$mcp"} "$@"
