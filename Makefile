# transitiond: set-up, build, run and test.
#
#   make run    install what the machine lacks, build, start the daemon in the foreground
#   make test   install what the machine lacks, build, run the whole test suite

SWIFT ?= swift
CONFIG ?= config/transitiond.json
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup build release run test bench lint clean

## setup: install libevent-dev and pkg-config from Debian when they are missing.
setup:
	@pkg-config --exists libevent 2>/dev/null || { \
	  echo "installing libevent-dev and pkg-config"; \
	  $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q libevent-dev pkg-config; }

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

run: build
	$$($(SWIFT) build --show-bin-path)/transitiond --config $(CONFIG)

test: setup
	$(SWIFT) test

bench: release
	$$($(SWIFT) build -c release --show-bin-path)/transition-bench

lint:
	$(SWIFT) format lint -r Sources Plugins Tests

clean:
	rm -rf .build
