# transitiond: set-up, build, run and test.
#
#   make run    install what the machine lacks, build, start the daemon in the foreground
#   make test   install what the machine lacks, build, run the whole test suite
#   make fuzz   build the libFuzzer target and run it for FUZZ_SECONDS (default 60) on the
#               corpus in Tests/FuzzCorpus; findings land in .build/fuzz/ (docs/security.md)

SWIFT ?= swift
CONFIG ?= config/transitiond.json
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# transitiond refuses plugins that group or others may write, so build them 0755/0644 whatever
# the caller's umask.
BUILD_UMASK := umask 022 &&

FUZZ_SECONDS ?= 60
FUZZ_CORPUS := Tests/FuzzCorpus
FUZZ_FLAGS := --scratch-path .build/fuzz \
  -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
FUZZ_PLUGINS := AlbumFlip ZoomPresent DefaultSlide Crossfade

.PHONY: setup build release run test fuzz bench lint clean

## setup: install libevent-dev and pkg-config from Debian when they are missing.
setup:
	@pkg-config --exists libevent 2>/dev/null || { \
	  echo "installing libevent-dev and pkg-config"; \
	  $(SUDO) apt-get update -q && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q libevent-dev pkg-config; }

build: setup
	$(BUILD_UMASK) $(SWIFT) build

release: setup
	$(BUILD_UMASK) $(SWIFT) build -c release

run: build
	$$($(SWIFT) build --show-bin-path)/transitiond --config $(CONFIG)

test: setup
	$(BUILD_UMASK) $(SWIFT) test

## fuzz: the request path under libFuzzer with AddressSanitizer, in its own build directory
## (.build/fuzz), with the animator plugins built there too so that their code is covered and
## checked. New inputs go to .build/fuzz/corpus (the repository's corpus is only read); a
## crashing input to .build/fuzz/crash-*. Exits non-zero when the fuzzer finds something.
fuzz: setup
	$(BUILD_UMASK) for plugin in $(FUZZ_PLUGINS); do \
	  $(SWIFT) build $(FUZZ_FLAGS) --product $$plugin || exit 1; done
	$(BUILD_UMASK) $(SWIFT) build $(FUZZ_FLAGS) --product transition-fuzz
	mkdir -p .build/fuzz/corpus
	bin="$$($(SWIFT) build $(FUZZ_FLAGS) --show-bin-path)" && \
	TRANSITION_FUZZ_PLUGINS="$$bin" "$$bin/transition-fuzz" -max_total_time=$(FUZZ_SECONDS) \
	  -timeout=20 -print_final_stats=1 -dict=Tests/FuzzDictionary.txt \
	  -artifact_prefix=.build/fuzz/ .build/fuzz/corpus $(FUZZ_CORPUS)

bench: release
	$$($(SWIFT) build -c release --show-bin-path)/transition-bench

lint:
	$(SWIFT) format lint -r Sources Plugins Tests

clean:
	rm -rf .build
