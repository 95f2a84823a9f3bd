# DeskBridge — build, test, fuzz, bench.
GO      ?= go
BIN     ?= bin/deskbridge
PKGS    := ./...
FUZZTIME ?= 10s

.PHONY: generate check-generated schema build test test-unit test-e2e test-windows lint cross policy-test fuzz fuzz-brief bench clean

## build: deskbridge, and beside it deskbridge-host, the small program
## install registers (docs/warm.md). The tag nodynamic
## keeps the WebP and AVIF codecs WebAssembly only (docs/protocol.md, Images).
build:
	$(GO) build -trimpath -tags nodynamic -o $(BIN) ./cmd/deskbridge
	$(GO) build -trimpath -o $(dir $(BIN))deskbridge-host ./cmd/deskbridge-host

## test: everything CI runs — format, vet, cross builds, unit tests with the
## race detector, a brief run of every fuzz target, the policy tests through
## our own binary, the browser end-to-end suite, and the Windows build's
## tests under Wine. Each step says how long it took when it ends (the
## figures in README.md come from these lines).
TEST_STEPS := lint cross test-unit fuzz-brief policy-test test-e2e test-windows
test:
	@for step in $(TEST_STEPS); do \
	  start=$$(date +%s); $(MAKE) --no-print-directory $$step || exit 1; \
	  echo "== make $$step: $$(($$(date +%s) - start)) s"; \
	done

## lint: gofmt, stale generated files, and go vet for each system we ship
## for. Each vet names the GOARCH that cross builds: vet compiles every
## package it imports, and the same target then compiles once for both.
lint: check-generated
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	GOOS=windows GOARCH=amd64 $(GO) vet $(PKGS)
	GOOS=darwin GOARCH=arm64 $(GO) vet $(PKGS)

cross:
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./...
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./...
	GOOS=linux GOARCH=arm64 $(GO) build -o /dev/null ./...

## test-unit: every package's tests with the race detector. cmd/deskbridge
## runs about 5 minutes on 2 cores and was seen past go test's default
## 10-minute bound on a loaded machine: the bound is 30 minutes.
test-unit:
	$(GO) test -race -count=1 -timeout 30m $(PKGS)

## policy-test: the Rego policy tests through our own binary, built as the
## tests build it (gobuild.Tags, no -trimpath): its packages are then those
## the unit and end-to-end tests compile, where make build's -trimpath would
## compile every package once more.
policy-test:
	$(GO) run -tags nodynamic ./cmd/deskbridge policy test

## generate: regenerate what is generated from the code — the argument
## schemas the reference extension loads (extension/schemas.json) and the
## actions table of docs/protocol.md.
generate:
	GO=$(GO) scripts/generate.sh

## schema: the old name of generate.
schema: generate

## check-generated: fail when a committed generated file is stale.
check-generated:
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	GO=$(GO) scripts/generate.sh "$$tmp" && \
	diff -u extension/schemas.json "$$tmp/extension/schemas.json" && \
	diff -u docs/protocol.md "$$tmp/docs/protocol.md" || \
	{ echo "generated files are stale: run make generate and commit the result"; exit 1; }

test-e2e:
	$(GO) test -tags e2e -count=1 ./e2e/

## test-windows: every package's tests cross-compiled for Windows and run
## under Wine, then deskbridge.exe driven under Wine by e2e/wine
## (docs/windows.md). Needs Debian wine64 and gcc-mingw-w64-x86-64-win32.
test-windows:
	GO=$(GO) scripts/wine/test.sh

## fuzz: a short run of every fuzz target (FUZZTIME each), stopping at the
## first that fails: each package's test binary is built once, instrumented,
## and fuzzes each of its targets in turn (scripts/fuzz.sh).
fuzz:
	GO=$(GO) FUZZTIME=$(FUZZTIME) scripts/fuzz.sh

## fuzz-brief: the fuzz step of make test: every target (52 in 28
## packages) for 500 executions, so that a target the fuzzer breaks at
## once cannot land. A count, not a time: Go 1.26's fuzz coordinator can
## report a time budget's own end as "context deadline exceeded" on a
## loaded machine (go.dev/issue/75804, fixed in Go 1.27); a count has no
## deadline to race. Each target also costs a few seconds of start (its
## seed corpus first) on 2 cores.
fuzz-brief:
	$(MAKE) fuzz FUZZTIME=500x

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

clean:
	rm -rf bin
