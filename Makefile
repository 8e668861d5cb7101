# GeoScan — run `make help` for the targets.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
BIN       := bin/geoscan
LINT      := $(GO) tool -modfile=tools/golangci-lint.mod golangci-lint
# A package's tests may take longer than go test's default 10 minutes on a
# busy machine (the browser and PDF suites); a hang still ends the run.
GOTEST    := $(GO) test -count=1 -p 2 -timeout 25m $(GOTESTFLAGS)
# Every go command here builds with -trimpath, so the build cache keys the
# module's packages by their content and not by the folder of the clone: a
# fresh clone (CI's) reuses what an earlier run compiled, and vet,
# golangci-lint, the tests and the binaries share one set of compiled
# packages.
export GOFLAGS := $(filter-out -trimpath,$(GOFLAGS)) -trimpath
# `make fuzz` fuzzes each target for FUZZTIME; the fuzz stage of `make
# test` takes about FUZZ_BUDGET seconds in all, builds included, however
# many targets there are (.ci/fuzz).
FUZZTIME    ?= 60s
FUZZ_BUDGET ?= 60
# The stages of `make test` (.ci/stages runs them and prints their times;
# bg:STAGE runs in the background at a lower priority, `wait` joins). The
# Node tools' install and verify (make generate in a copy of the tree) need
# nothing the others build, so they run beside vet, whose compiled packages
# golangci-lint, the tests and the contract's server then find in the
# build cache. The fuzzing binaries are compiled while the tests run, on
# the CPU the tests leave while they wait on processes and time-outs. The
# contract's Redocly lint is the one lint/openapi runs, so make test runs
# it once.
TEST_STAGES := bg:contract/tools bg:verify vet lint/go bg:test/fuzz/build test/go wait test/fuzz contract
# Node tools (Redocly, Spectral, openapi-typescript, openapi-fetch, tsc,
# Prism), pinned in tools/contract/package-lock.json.
NODE_TOOLS := tools/contract
REDOCLY    := $(NODE_TOOLS)/node_modules/.bin/redocly

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"} /^[a-zA-Z0-9_\/-]+:.*##/ {printf "  \033[36m%-14s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## Build bin/geoscan.
	$(GO) build -trimpath -o $(BIN) ./cmd/geoscan

.PHONY: run
run: build ## Start GeoScan with a private PostgreSQL under .data/ and print a dev API key.
	./$(BIN) dev

.PHONY: test
test: ## Everything CI runs: generated-code check, vet, lint, all tests on a real PostgreSQL, a one-minute fuzz run, the contract checks; then each stage's time.
	@TEST_START=$$(date +%s) GOTESTFLAGS=-vet=off $(GO) run ./cmd/testdb -- .ci/stages $(TEST_STAGES)

.PHONY: test/go
test/go: ## Run the Go tests (GEOSCAN_TEST_DATABASE_URL, or an ephemeral cluster).
	$(GO) run ./cmd/testdb -- $(GOTEST) ./...

.PHONY: test/short
test/short: ## Quick local run: the Go tests with -short (no worker-crash tests, no waiting out time-outs).
	$(GO) run ./cmd/testdb -- $(GOTEST) -short ./...

.PHONY: test/fuzz
test/fuzz: ## Fuzz the Fuzz* targets for FUZZ_BUDGET (60) seconds in all, builds included, as make test does.
	$(GO) run ./cmd/testdb -- env FUZZ_BUDGET=$(FUZZ_BUDGET) .ci/fuzz

.PHONY: test/fuzz/build
test/fuzz/build: ## Compile the fuzzing binaries of test/fuzz and fuzz (bin/fuzz/) ahead of them.
	.ci/fuzz build

.PHONY: fuzz
fuzz: ## Run every Fuzz* target for FUZZTIME (60s) each; a crash is kept under testdata/fuzz/.
	$(GO) run ./cmd/testdb -- env FUZZTIME=$(FUZZTIME) .ci/fuzz

.PHONY: test/race
test/race: ## Run the Go tests with the race detector.
	$(GO) run ./cmd/testdb -- $(GOTEST) -race ./...

.PHONY: generate
generate: ## Regenerate gen/ from openapi.yaml and sql/.
	$(GO) generate ./gen/...

# make generate runs in a copy of the tree, which leaves the work tree as it
# is: verify can run while other stages compile gen/.
.PHONY: verify
verify: ## Fail if gen/ is not what make generate produces (new files included).
	@copy=$$(mktemp -d); trap 'rm -rf "$$copy"' EXIT; \
	tar -cf - --exclude=./.git --exclude=./.data --exclude=./bin --exclude=./$(NODE_TOOLS)/node_modules . | tar -xf - -C "$$copy"; \
	$(MAKE) -s --no-print-directory -C "$$copy" generate; \
	if ! diff -r gen "$$copy/gen" >/dev/null; then \
		echo "gen/ is stale: run 'make generate' and commit the result"; diff -r gen "$$copy/gen" | head -40; exit 1; \
	fi; \
	if [ -n "$$(git status --porcelain --untracked-files=all -- gen 2>/dev/null)" ]; then \
		echo "gen/ has uncommitted or untracked generated files:"; git status --porcelain --untracked-files=all -- gen; exit 1; \
	fi
	@echo "generated code is fresh"

.PHONY: vet
vet: ## go vet.
	$(GO) vet ./...

.PHONY: lint
lint: lint/go lint/openapi ## golangci-lint and the OpenAPI lint.

.PHONY: lint/go
lint/go: ## golangci-lint (pinned in tools/golangci-lint.mod).
	# Another golangci-lint on the machine (an editor's, a second checkout's)
	# holds its lock: wait for it rather than fail the run.
	$(LINT) run --allow-serial-runners ./...

.PHONY: lint/openapi
lint/openapi: $(NODE_TOOLS)/node_modules/.package-lock.json ## Lint openapi.yaml with Redocly's recommended rules (redocly.yaml).
	REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true $(REDOCLY) lint openapi.yaml

.PHONY: contract/tools
contract/tools: $(NODE_TOOLS)/node_modules/.package-lock.json ## Install the Node tools of lint/openapi and contract (npm ci) unless they are up to date.

.PHONY: contract
contract: $(NODE_TOOLS)/node_modules/.package-lock.json ## Redocly and Spectral lint, a generated TypeScript client type-checked and run against a live server, directly and through Prism.
	$(NODE_TOOLS)/run.sh

# npm ci installs exactly the lockfile; install scripts are not run (none
# of the tools needs one, and one is telemetry).
$(NODE_TOOLS)/node_modules/.package-lock.json: $(NODE_TOOLS)/package-lock.json
	npm ci --prefix $(NODE_TOOLS) --ignore-scripts --no-audit --no-fund --loglevel=error

.PHONY: bench
bench: ## Go benchmarks and the HTTP load benchmark (see docs/PERFORMANCE.md).
	$(GO) run ./cmd/testdb -- $(GO) test -run '^$$' -bench . -benchmem ./...
	bench/http.sh

.PHONY: tidy
tidy: ## go mod tidy for the module and the lint tool module.
	$(GO) mod tidy
	$(GO) mod tidy -modfile=tools/golangci-lint.mod

.PHONY: db/reset
db/reset: ## Delete the private development cluster and key under .data/.
	rm -rf .data

.PHONY: demo
demo: build ## Scan the built-in fixture sites offline and print rings and grades.
	./$(BIN) demo

.PHONY: docs
docs: ## Rewrite the outputs and tables README.md and docs/*.md show from what the code prints (tests fail when they drift).
	$(GO) run ./cmd/testdb -- $(GO) test -count=1 -run '^TestDocs' ./internal/cli ./internal/config -update

.PHONY: docs/pdf-samples
docs/pdf-samples: build ## Scan the fixtures offline and render sample PDF pages of both audiences into docs/pdf-samples (poppler-utils).
	@command -v pdftoppm >/dev/null || { echo "pdftoppm not found: apt-get install poppler-utils"; exit 1; }
	@dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	./$(BIN) demo --pdf-dir "$$dir" >/dev/null; \
	rm -rf docs/pdf-samples; mkdir -p docs/pdf-samples; \
	for a in marketing engineering; do \
		pdf="$$dir/nextshell-$$a.pdf"; \
		last=$$(pdfinfo "$$pdf" | awk '/^Pages:/ {print $$2}'); \
		for p in 1 2 3 4 5 6 $$last; do \
			name=page-$$p; [ "$$p" = "$$last" ] && name=fetched; \
			pdftoppm -png -r 60 -singlefile -f "$$p" -l "$$p" "$$pdf" "docs/pdf-samples/$$a-$$name"; \
		done; \
	done; \
	ls docs/pdf-samples
