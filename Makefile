# transitiond: set-up, build, run and test.
#
#   make run    install what the machine lacks, build, start the daemon in the foreground
#   make test   install what the machine lacks, build, run the whole test suite

SWIFT ?= swift
CONFIG ?= config/transitiond.json
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# transitiond refuses plugins that group or others may write, so build them 0755/0644 whatever
# the caller's umask.
BUILD_UMASK := umask 022 &&

.PHONY: setup build release run test bench lint clean

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

bench: release
	$$($(SWIFT) build -c release --show-bin-path)/transition-bench

lint:
	$(SWIFT) format lint --strict -r Sources Plugins Tests

clean:
	rm -rf .build
