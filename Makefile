# transitiond: set-up, build, run and test.
#
#   make run            install what the machine lacks, build, start the daemon in the foreground
#                       with the live viewer on 127.0.0.1:7878 (VIEWER=; VIEWER= turns it off)
#   make test           install what the machine lacks, build, run the whole test suite
#   make fuzz           build the libFuzzer target and run each byte stream the daemon reads
#                       for its share of FUZZ_SECONDS (default 60) on its corpus in
#                       Tests/FuzzCorpus/<stream>; findings land in .build/fuzz/ (docs/security.md);
#                       first the Python and JS decoders for CLIENT_FUZZ_SECONDS each
#   make conformance    record the conformance vectors (Tests/Conformance) against a daemon on a
#                       temporary socket and write their expected frames with the Swift client
#                       (CONFORMANCE_WALL=1 records the wall-clock vectors again too)
#   make bench-python   the Python package's decode-and-apply speed (frames/s, median of 5)
#   make soak           the daemon under churn for SOAK_SECONDS (default 600), failing on growth,
#                       gaps, late frames and unanswered requests (docs/security.md, "Soak")
#   make sanitize       the integration suite against AddressSanitizer/UBSan and
#                       ThreadSanitizer builds (docs/security.md, "Sanitizers")
#   make contact-sheet  redraw docs/images/album-flip-contact-sheet.png in headless Chromium
#   make pictures       render an animated picture of each built-in animator into docs/images/
#                       (transitionctl render: headless Chromium and ffmpeg)
#   make scene-images   redraw the example scenes' pictures (config/scenes/images) with Pillow
#   make gles           the native renderer as C libraries: .build/clib/libtransitiond-gles.so, .a
#   make install        install under $(PREFIX) (default /usr/local), staged under $(DESTDIR)
#   make clib           the C client library, shared and static, into .build/clib/ (docs/client-c.md)
#   make install-clib   only the C client library: header, libraries, pkg-config file
#   make install-gles   only the native renderer library (after install-clib): header, libraries, .pc
#   make bench-clib     frames a second the C client library decodes from album-flip recordings
#   make plugin NAME=fade LANG=json|c|swift [DIR=../fade]
#                       write a plugin skeleton (config/templates, docs/plugins.md)

SWIFT ?= swift
CONFIG ?= config/transitiond.json
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# transitiond refuses plugins that group or others may write, so build them 0755/0644 whatever
# the caller's umask.
BUILD_UMASK := umask 022 &&

# Where `make install` puts things (docs/install.md).
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(PREFIX)/bin
PLUGINDIR := $(PREFIX)/lib/transitiond/plugins
# The built-in animators, data files the plugin host reads (docs/animators.md).
ANIMATORDIR := $(PREFIX)/share/transitiond/animators
VIEWERDIR := $(PREFIX)/share/transitiond/viewer
# The example scenes, which `transitiond check-plugin` uses when given none.
SCENEDIR := $(PREFIX)/share/transitiond/scenes
DOCDIR := $(PREFIX)/share/doc/transitiond
# /etc for PREFIX=/usr, $(PREFIX)/etc otherwise.
SYSCONFDIR ?= $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
CONFIGDIR := $(SYSCONFDIR)/transitiond
SYSTEMD_USER_DIR := $(PREFIX)/lib/systemd/user
SYSTEMD_SYSTEM_DIR := $(PREFIX)/lib/systemd/system
SYSUSERS_DIR := $(PREFIX)/lib/sysusers.d
EXECUTABLES := transitiond transitionctl transition-bench
# The example plugins: cube-turn on the Swift SDK, crossfade in C.
PLUGINS := CubeTurn Crossfade
# The unit files name the default layout's paths; install rewrites them for $(PREFIX).
UNIT_PATHS := sed -e 's|/usr/local/bin/|$(BINDIR)/|g' \
  -e 's|/usr/local/lib/transitiond/plugins|$(PLUGINDIR)|g' \
  -e 's|/usr/local/etc/transitiond/|$(CONFIGDIR)/|g' \
  -e 's|/usr/local/share/doc/transitiond/|$(DOCDIR)/|g'

FUZZ_SECONDS ?= 60
FUZZ_CORPUS := Tests/FuzzCorpus
FUZZ_FLAGS := --scratch-path .build/fuzz \
  -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
FUZZ_PLUGINS := CubeTurn Crossfade
# The byte streams the daemon reads, one fuzzer check each (docs/security.md, "Fuzzing").
FUZZ_STREAMS := request viewer-http host-message animator-file
# The byte streams the C client library reads: its decoder, a C libFuzzer target of its own.
FUZZ_C_STREAMS := c-decoder

SOAK_SECONDS ?= 600

# The C client library (docs/client-c.md): plain C11, built by the C compiler alone.
CC := cc
# The toolchain's clang (libFuzzer and the sanitizers' runtimes come with it).
CLANG ?= $(shell d=$$(dirname "$$(readlink -f "$$(command -v $(SWIFT))")"); \
  [ -x "$$d/clang" ] && echo "$$d/clang" || echo clang)
CLIB_DIR := .build/clib
CLIB_SOURCES := $(wildcard Sources/CTransitionClient/*.c)
CLIB_HEADER := Sources/CTransitionClient/include/transitiond_client.h
CLIB_CFLAGS := -std=c11 -Wall -Wextra -pedantic -O2 -fPIC -fvisibility=hidden
CLIB_VERSION := 1.0.0
CLIB_SONAME := libtransitiond-client.so.1
LIBDIR := $(PREFIX)/lib
INCLUDEDIR := $(PREFIX)/include
PKGCONFIGDIR := $(LIBDIR)/pkgconfig
# The Python package (Sources/python) and the JS module (Sources/TransitionViewer/viewer/
# transitiond.mjs, Sources/js): Debian's python3 runs pytest from a virtual environment under
# .build (with the system's packages, for pycairo and Pillow); Debian's node runs node --test.
PYTHON ?= /usr/bin/python3
NODE ?= node
PY_VENV := .build/python-venv
CLIENT_FUZZ_SECONDS ?= 5

# The sanitizers' builds (docs/security.md, "Sanitizers"). Swift has no UndefinedBehaviorSanitizer
# on Linux: the C targets get it (-fsanitize=undefined, linked by clang).
# -DSANITIZED lifts the plugin host's address-space limit (RLIMIT_AS), which leaves no room for
# the sanitizers' shadow memory.
ASAN_FLAGS := --scratch-path .build/sanitize -Xswiftc -sanitize=address -Xswiftc -DSANITIZED \
  -Xcc -fsanitize=address,undefined -Xcc -fno-sanitize-recover=undefined \
  -Xswiftc -Xclang-linker -Xswiftc -fsanitize=undefined
TSAN_FLAGS := --scratch-path .build/tsan -Xswiftc -sanitize=thread -Xswiftc -DSANITIZED \
  -Xcc -fsanitize=thread
ASAN_OPTIONS := detect_leaks=1:abort_on_error=1:halt_on_error=1
UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1
TSAN_OPTIONS := halt_on_error=1:second_deadlock_stack=1
SANITIZE_FILTER ?= DaemonTests|CLITests|BrowserTests
TSAN_FILTER ?= DaemonViewerHTTPTests|DaemonViewerImagesTests|LibeventLoopTests

CHROMIUM ?= chromium
# The example scenes' pictures (content.image), drawn by config/scenes/make-images.py.
SCENE_IMAGES := config/scenes/images
CONTACT_SHEET := docs/images/album-flip-contact-sheet.png
# Progress values of the contact sheet's panels.
CONTACT_SHEET_VIEWS := p:0,p:0.05,p:0.1,p:0.15,p:0.25,p:0.5,p:0.75,p:1

.PHONY: setup build release run test fuzz soak sanitize bench lint clean contact-sheet pictures scene-images \
  install plugin clib install-clib bench-clib test-python test-js conformance \
  bench-python fuzz-clients gles install-gles

## setup: install what is missing from Debian, with one apt-get update: libevent-dev and
## pkg-config (to build), gcc and g++ (the C client library and its tests, which also compile its
## header as C++), chromium (for the browser tests, the contact sheet and
## `transitionctl render`), ffmpeg (the encoder of `transitionctl render`, and ffprobe for its
## tests), python3-venv (the Python tests' virtual environment), python3-cairo and python3-pil
## (the Python example renderer) and nodejs (the JS module's tests).
setup:
	@missing=""; \
	pkg-config --exists libevent 2>/dev/null || missing="$$missing libevent-dev pkg-config"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	command -v cc >/dev/null 2>&1 || missing="$$missing gcc"; \
	command -v c++ >/dev/null 2>&1 || missing="$$missing g++"; \
	command -v $(CHROMIUM) >/dev/null 2>&1 || missing="$$missing chromium"; \
	{ command -v ffmpeg && command -v ffprobe; } >/dev/null 2>&1 || missing="$$missing ffmpeg"; \
	$(PYTHON) -c 'import ensurepip' >/dev/null 2>&1 || missing="$$missing python3-venv"; \
	$(PYTHON) -c 'import cairo' >/dev/null 2>&1 || missing="$$missing python3-cairo"; \
	$(PYTHON) -c 'import PIL' >/dev/null 2>&1 || missing="$$missing python3-pil"; \
	command -v $(NODE) >/dev/null 2>&1 || missing="$$missing nodejs"; \
	pkg-config --exists egl 2>/dev/null || missing="$$missing libegl-dev"; \
	pkg-config --exists glesv2 2>/dev/null || missing="$$missing libgles-dev"; \
	ls /usr/lib/*/libEGL_mesa.so.0 >/dev/null 2>&1 || missing="$$missing libegl-mesa0"; \
	ls /usr/lib/*/dri/swrast_dri.so >/dev/null 2>&1 || missing="$$missing libgl1-mesa-dri"; \
	pkg-config --exists cairo 2>/dev/null || missing="$$missing libcairo2-dev"; \
	pkg-config --exists pangocairo 2>/dev/null || missing="$$missing libpango1.0-dev"; \
	pkg-config --exists libjpeg 2>/dev/null || missing="$$missing libjpeg-dev"; \
	pkg-config --exists libpng 2>/dev/null || missing="$$missing libpng-dev"; \
	fc-list 2>/dev/null | grep -q DejaVuSans || missing="$$missing fonts-dejavu-core"; \
	fc-list 2>/dev/null | grep -q LiberationSans || missing="$$missing fonts-liberation"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  $(SUDO) apt-get update -q && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

build: setup
	$(BUILD_UMASK) $(SWIFT) build

release: setup
	$(BUILD_UMASK) $(SWIFT) build -c release

## run: the daemon in the foreground on CONFIG, with the live viewer on for this run only
## (VIEWER, a loopback address and port; its URL with the token is logged at start), serving
## the example scenes' pictures. The installed config keeps the viewer off.
VIEWER ?= 127.0.0.1:7878
run: build
	$$($(SWIFT) build --show-bin-path)/transitiond --config $(CONFIG) \
	  $(if $(VIEWER),--viewer $(VIEWER) --viewer-images $(CURDIR)/$(SCENE_IMAGES))

## test: the Swift suite, then the Python package's and the JS module's tests against the
## daemon it built.
test: setup
	$(BUILD_UMASK) $(SWIFT) test
	$(MAKE) test-python test-js

$(PY_VENV)/bin/pytest:
	$(PYTHON) -m venv --system-site-packages $(PY_VENV)
	$(PY_VENV)/bin/pip install -q --disable-pip-version-check pytest

## test-python: pytest on Tests/PythonTests against the built transitiond.
test-python: $(PY_VENV)/bin/pytest
	TRANSITIOND_BIN=$$($(SWIFT) build --show-bin-path) $(PY_VENV)/bin/pytest -q Tests/PythonTests

## test-js: node --test on Tests/JSTests against the built transitiond.
test-js:
	TRANSITIOND_BIN=$$($(SWIFT) build --show-bin-path) $(NODE) --test Tests/JSTests/

## conformance: the virtual-clock vectors recorded again (deterministic: the same bytes every
## run) against the built daemon, and every vector's expected frames written by the Swift
## client (ConformanceVectorTests); CONFORMANCE_WALL=1 records the wall-clock ones again too
## (docs/conformance.md).
conformance: build
	$(PYTHON) Tests/Conformance/record.py --bin $$($(SWIFT) build --show-bin-path) \
	  $(if $(CONFORMANCE_WALL),--wall)
	TRANSITIOND_CONFORMANCE_WRITE=1 $(SWIFT) test --filter ConformanceVectorTests

## bench-python: the Python package's decode and delta application of album-flip frames.
bench-python:
	$(PYTHON) Tests/PythonTests/bench_decode.py

## fuzz-clients: the Python and JS decoders on mutated conformance vectors, each for
## CLIENT_FUZZ_SECONDS.
fuzz-clients:
	$(PYTHON) Tests/PythonTests/fuzz_decode.py $(CLIENT_FUZZ_SECONDS)
	$(NODE) Tests/JSTests/fuzz.mjs $(CLIENT_FUZZ_SECONDS)

## fuzz: every byte stream the daemon reads under libFuzzer with AddressSanitizer, each stream
## (FUZZ_STREAMS) for its share of FUZZ_SECONDS on its corpus Tests/FuzzCorpus/<stream> with
## its dictionary Tests/FuzzDictionaries/<stream>.txt, in its own build directory (.build/fuzz),
## with the example plugins built there too so that their code is covered and checked, and with
## the data animators of config/animators; and the C client library's decoder (c-decoder, a C
## libFuzzer target with UndefinedBehaviorSanitizer too). New inputs go to .build/fuzz/corpus/<stream> (the
## repository's corpus is only read); a crashing input to .build/fuzz/<stream>-crash-*. Exits
## non-zero when the fuzzer finds something.
fuzz: setup fuzz-clients
	$(BUILD_UMASK) for plugin in $(FUZZ_PLUGINS); do \
	  $(SWIFT) build $(FUZZ_FLAGS) --product $$plugin || exit 1; done
	$(BUILD_UMASK) $(SWIFT) build $(FUZZ_FLAGS) --product transition-fuzz
	@set -e; bin="$$($(SWIFT) build $(FUZZ_FLAGS) --show-bin-path)"; \
	share=$$(( $(FUZZ_SECONDS) / $(words $(FUZZ_STREAMS) $(FUZZ_C_STREAMS)) )); [ $$share -ge 1 ] || share=1; \
	for stream in $(FUZZ_STREAMS); do \
	  echo "fuzz: $$stream for $$share s"; mkdir -p .build/fuzz/corpus/$$stream; \
	  TRANSITION_FUZZ_STREAM=$$stream TRANSITION_FUZZ_PLUGINS="$$bin" \
	  TRANSITION_FUZZ_ANIMATORS=$(CURDIR)/config/animators \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/FuzzLeakSuppressions.txt \
	  "$$bin/transition-fuzz" -max_total_time=$$share -timeout=20 -print_final_stats=1 \
	    -dict=Tests/FuzzDictionaries/$$stream.txt -artifact_prefix=.build/fuzz/$$stream- \
	    .build/fuzz/corpus/$$stream $(FUZZ_CORPUS)/$$stream; \
	done; \
	echo "fuzz: c-decoder for $$share s"; mkdir -p .build/fuzz/corpus/c-decoder; \
	$(CLANG) -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fuse-ld=lld \
	  -ISources/CTransitionClient/include -ISources/CTransitionClient Tests/CClientTests/decoder_fuzz.c $(CLIB_SOURCES) -lm \
	  -o .build/fuzz/c-decoder-fuzz; \
	.build/fuzz/c-decoder-fuzz -max_total_time=$$share -timeout=20 -print_final_stats=1 \
	  -dict=Tests/FuzzDictionaries/c-decoder.txt -artifact_prefix=.build/fuzz/c-decoder- \
	  .build/fuzz/corpus/c-decoder $(FUZZ_CORPUS)/c-decoder

## soak: transitiond under a bounded churn from several processes for SOAK_SECONDS (default
## 600), failing on growth, on a healthy subscriber's gap or lateness and on a request with no
## reply; prints its figures (transition-soak, docs/security.md "Soak"). The release build, as
## the daemon ships: a debug build's render and its readers' parsing take several times the CPU,
## which a loaded machine turns into lateness.
soak: release
	$$($(SWIFT) build -c release --show-bin-path)/transition-soak --seconds $(SOAK_SECONDS)

## sanitize: the daemon, the plugin host and the plugins built with AddressSanitizer (and
## UndefinedBehaviorSanitizer for the C targets) in .build/sanitize, and with ThreadSanitizer in
## .build/tsan, each running the integration suite (SANITIZE_FILTER, default all of it; TSAN_FILTER
## for ThreadSanitizer) against them; then the C client library's test (Tests/CClientTests) built
## with AddressSanitizer and UndefinedBehaviorSanitizer against that daemon; exits non-zero on any
## report (docs/security.md, "Sanitizers"). Swift's own crash backtracer is off: under a sanitizer it hung instead of
## reporting.
sanitize: setup
	$(BUILD_UMASK) SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=$(ASAN_OPTIONS) UBSAN_OPTIONS=$(UBSAN_OPTIONS) \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/SanitizerLeakSuppressions.txt \
	  $(SWIFT) test $(ASAN_FLAGS) --filter '$(SANITIZE_FILTER)'
	$(BUILD_UMASK) SWIFT_BACKTRACE=enable=no TSAN_OPTIONS=$(TSAN_OPTIONS) \
	  $(SWIFT) test $(TSAN_FLAGS) --filter '$(TSAN_FILTER)'
	$(MAKE) clib
	@set -e; bin="$$($(SWIFT) build $(ASAN_FLAGS) --show-bin-path)"; \
	$(BUILD_UMASK) $(SWIFT) build $(ASAN_FLAGS) --product transitiond; \
	$(CLANG) -std=c11 -Wall -Wextra -pedantic -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	  -fuse-ld=lld -ISources/CTransitionClient/include -ISources/CTransitionClient \
	  Tests/CClientTests/client_test.c $(CLIB_SOURCES) -lm -o .build/sanitize/client_test; \
	SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=$(ASAN_OPTIONS) UBSAN_OPTIONS=$(UBSAN_OPTIONS) \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/SanitizerLeakSuppressions.txt \
	  .build/sanitize/client_test "$$bin/transitiond" "$$bin" config/scenes $(CLIB_DIR)/libtransitiond-client.so

## bench: release build, every benchmark mode; prints the table and writes .build/bench.json.
bench: release
	$$($(SWIFT) build -c release --show-bin-path)/transition-bench all --json .build/bench.json

## bench-clib: frames a second (of CPU time, median of 5 runs) the C client library decodes and
## applies from an album-flip recording at 60 fps, full and delta, recorded from a daemon on a
## temporary socket (docs/client-c.md, "Speed").
bench-clib: clib
	$(BUILD_UMASK) $(SWIFT) build --product transitiond
	$(BUILD_UMASK) $(SWIFT) build --product transitionctl
	@set -e; bin=$$($(SWIFT) build --show-bin-path); dir=$$(mktemp -d /tmp/td-bench-clib-XXXXXX); \
	$$bin/transitiond --socket $$dir/d.sock --plugin-path $$bin 2>$$dir/daemon.log & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null; rm -rf $$dir' EXIT; \
	for i in $$(seq 200); do $$bin/transitionctl --socket $$dir/d.sock version >/dev/null 2>&1 && break; sleep 0.05; done; \
	$$bin/transitionctl --socket $$dir/d.sock play config/scenes/album-flip-push.json --virtual --fps 60 \
	  --out $$dir/album-flip-full.ndjson; \
	$$bin/transitionctl --socket $$dir/d.sock play config/scenes/album-flip-push.json --virtual --fps 60 \
	  --delta --key-every 30 --out $$dir/album-flip-delta.ndjson; \
	$(CC) $(CLIB_CFLAGS) -I$(dir $(CLIB_HEADER)) Tests/CClientTests/decoder_bench.c $(CLIB_DIR)/libtransitiond-client.a \
	  -lm -pthread -o $(CLIB_DIR)/decoder_bench; \
	cd $$dir && $(CURDIR)/$(CLIB_DIR)/decoder_bench album-flip-full.ndjson album-flip-delta.ndjson

lint:
	$(SWIFT) format lint --strict -r Sources Plugins Tests

## clib: the C client library (Sources/CTransitionClient, plain C11) built by the C compiler
## alone into $(CLIB_DIR): libtransitiond-client.so.$(CLIB_VERSION) (soname $(CLIB_SONAME), with
## its links) and libtransitiond-client.a.
clib:
	@set -e; mkdir -p $(CLIB_DIR)/objects; objects=""; \
	for source in $(CLIB_SOURCES); do \
	  object=$(CLIB_DIR)/objects/$$(basename $$source .c).o; \
	  $(CC) $(CLIB_CFLAGS) -ISources/CTransitionClient/include -c $$source -o $$object; \
	  objects="$$objects $$object"; done; \
	$(CC) -shared -Wl,-soname,$(CLIB_SONAME) -o $(CLIB_DIR)/libtransitiond-client.so.$(CLIB_VERSION) $$objects -lm -pthread; \
	ln -sf libtransitiond-client.so.$(CLIB_VERSION) $(CLIB_DIR)/$(CLIB_SONAME); \
	ln -sf $(CLIB_SONAME) $(CLIB_DIR)/libtransitiond-client.so; \
	rm -f $(CLIB_DIR)/libtransitiond-client.a; ar rcs $(CLIB_DIR)/libtransitiond-client.a $$objects; \
	echo "built $(CLIB_DIR)/libtransitiond-client.so.$(CLIB_VERSION) and $(CLIB_DIR)/libtransitiond-client.a"

## install-clib: the C client library alone: its header under $(INCLUDEDIR), its shared and
## static libraries under $(LIBDIR), and $(PKGCONFIGDIR)/transitiond-client.pc.
install-clib: clib
	@set -e; install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR); \
	install -m 0644 $(CLIB_HEADER) $(DESTDIR)$(INCLUDEDIR)/; \
	install -m 0755 $(CLIB_DIR)/libtransitiond-client.so.$(CLIB_VERSION) $(DESTDIR)$(LIBDIR)/; \
	ln -sf libtransitiond-client.so.$(CLIB_VERSION) $(DESTDIR)$(LIBDIR)/$(CLIB_SONAME); \
	ln -sf $(CLIB_SONAME) $(DESTDIR)$(LIBDIR)/libtransitiond-client.so; \
	install -m 0644 $(CLIB_DIR)/libtransitiond-client.a $(DESTDIR)$(LIBDIR)/; \
	{ echo 'prefix=$(PREFIX)'; echo 'includedir=$(INCLUDEDIR)'; echo 'libdir=$(LIBDIR)'; echo; \
	  echo 'Name: transitiond-client'; \
	  echo 'Description: C client library of transitiond: decoded frames, requests, events'; \
	  echo 'Version: $(CLIB_VERSION)'; \
	  echo 'Cflags: -I$${includedir}'; echo 'Libs: -L$${libdir} -ltransitiond-client'; \
	  echo 'Libs.private: -lm -pthread'; } > $(DESTDIR)$(PKGCONFIGDIR)/transitiond-client.pc; \
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/transitiond-client.pc; \
	echo "installed the C client library under $(DESTDIR)$(PREFIX)"

clean:
	rm -rf .build

## contact-sheet: the album flip at several progress values, drawn by the viewer page in
## headless Chromium from a recording made by a daemon on a temporary socket.
contact-sheet: build
	@set -e; bin=$$($(SWIFT) build --show-bin-path); dir=$$(mktemp -d /tmp/td-sheet-XXXXXX); \
	$$bin/transitiond --socket $$dir/d.sock --plugin-path $$bin 2>$$dir/daemon.log & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null; rm -rf $$dir' EXIT; \
	for i in $$(seq 200); do $$bin/transitionctl --socket $$dir/d.sock version >/dev/null 2>&1 && break; sleep 0.05; done; \
	$$bin/transitionctl --socket $$dir/d.sock play config/scenes/album-flip-push.json \
	  --virtual --fps 60 --out $$dir/flip.ndjson; \
	views=$$(echo "$(CONTACT_SHEET_VIEWS)" | tr ',' '\n' | wc -l); \
	mkdir -p $$(dirname $(CONTACT_SHEET)); \
	$(CHROMIUM) --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
	  --hide-scrollbars --virtual-time-budget=10000 --user-data-dir=$$dir/profile \
	  --force-device-scale-factor=0.5 --window-size=$$((16 + views * 406)),900 \
	  --screenshot=$(CONTACT_SHEET) \
	  "file://$(CURDIR)/Sources/TransitionViewer/viewer/index.html?recording=$$dir/flip.ndjson&sheet=$(CONTACT_SHEET_VIEWS)&images=file://$(CURDIR)/$(SCENE_IMAGES)/" \
	  2>$$dir/chromium.log || { cat $$dir/chromium.log; exit 1; }; \
	echo "wrote $(CONTACT_SHEET)"

## pictures: one animated picture of each built-in animator (the data animators of
## config/animators) and of the example plugins, from a daemon on a temporary socket:
## `transitionctl render` of an example scene with the native renderer (the plugins play
## default-slide's present), half size, 25 fps, looping with the last frame held 0.8 s; each
## must stay under 1 MB (PICTURE_LIMIT bytes).
PICTURES := album-flip:album-flip-push zoom-present:zoom-present-matched-present \
  default-slide:default-slide-push material-container-transform:material-container-transform-present \
  material-fade-through:material-fade-through-push material-shared-axis-x:material-shared-axis-x-push \
  material-shared-axis-y:material-shared-axis-y-push material-shared-axis-z:material-shared-axis-z-push \
  morph:morph-push cube-turn:default-slide-present crossfade:default-slide-present
PICTURE_LIMIT := 1048576
pictures: build
	@set -e; bin=$$($(SWIFT) build --show-bin-path); dir=$$(mktemp -d /tmp/td-pictures-XXXXXX); \
	$$bin/transitiond --socket $$dir/d.sock --plugin-path $$bin 2>$$dir/daemon.log & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null; rm -rf $$dir' EXIT; \
	for i in $$(seq 200); do $$bin/transitionctl --socket $$dir/d.sock version >/dev/null 2>&1 && break; sleep 0.05; done; \
	mkdir -p docs/images; \
	for picture in $(PICTURES); do animator=$${picture%%:*}; scene=$${picture#*:}; \
	  out=docs/images/$$animator.gif; \
	  $$bin/transitionctl --socket $$dir/d.sock render config/scenes/$$scene.json \
	    --animator $$animator --out $$out --scale 0.5 --fps 25 --hold 0.8 --images $(SCENE_IMAGES); \
	  size=$$(stat -c %s $$out); [ $$size -le $(PICTURE_LIMIT) ] || \
	    { echo "$$out is $$size bytes, over $(PICTURE_LIMIT)" >&2; exit 1; }; \
	done

## scene-images: the example scenes' pictures, drawn by config/scenes/make-images.py with
## Pillow (Debian's python3-pil, installed when missing) into $(SCENE_IMAGES).
scene-images:
	@/usr/bin/python3 -c 'import PIL' 2>/dev/null || { echo "installing python3-pil"; \
	  $(SUDO) apt-get update -q && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q python3-pil; }
	/usr/bin/python3 config/scenes/make-images.py $(SCENE_IMAGES)

## gles: the native renderer (Sources/CTransitionGLES, docs/renderer-gles.md) built by the C
## compiler alone as a shared and a static library in .build/clib/, with its pkg-config file;
## warning-free under -std=c11 -Wall -Wextra -pedantic.
GLES_SOURCES := $(wildcard Sources/CTransitionGLES/*.c)
GLES_PACKAGES := egl glesv2 pangocairo libpng libjpeg
GLES_CFLAGS := -std=c11 -Wall -Wextra -pedantic -Werror -O2 -fPIC -fvisibility=hidden \
  -ISources/CTransitionGLES/include -ISources/CTransitionClient/include
gles: setup
	@set -e; mkdir -p $(CLIB_DIR)/gles; flags="$$(pkg-config --cflags $(GLES_PACKAGES))"; \
	for source in $(GLES_SOURCES); do \
	  $(CC) $(GLES_CFLAGS) $$flags -c $$source -o $(CLIB_DIR)/gles/$$(basename $$source .c).o; done; \
	$(CC) -shared -Wl,-soname,libtransitiond-gles.so.1 -o $(CLIB_DIR)/libtransitiond-gles.so.1 \
	  $(CLIB_DIR)/gles/*.o $$(pkg-config --libs $(GLES_PACKAGES)) -lm; \
	ln -sf libtransitiond-gles.so.1 $(CLIB_DIR)/libtransitiond-gles.so; \
	rm -f $(CLIB_DIR)/libtransitiond-gles.a; ar rcs $(CLIB_DIR)/libtransitiond-gles.a $(CLIB_DIR)/gles/*.o; \
	sed -e 's|@PREFIX@|$(PREFIX)|g' config/transitiond-gles.pc.in > $(CLIB_DIR)/transitiond-gles.pc; \
	echo "built $(CLIB_DIR)/libtransitiond-gles.so and .a"

## install-gles: the native renderer alone (it needs install-clib's header and library): its
## header under $(INCLUDEDIR), its shared and static libraries under $(LIBDIR), and
## $(PKGCONFIGDIR)/transitiond-gles.pc.
install-gles: gles
	@set -e; install -d $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR); \
	install -m 0644 Sources/CTransitionGLES/include/transitiond_gles.h $(DESTDIR)$(INCLUDEDIR)/; \
	install -m 0755 $(CLIB_DIR)/libtransitiond-gles.so.1 $(DESTDIR)$(LIBDIR)/; \
	ln -sf libtransitiond-gles.so.1 $(DESTDIR)$(LIBDIR)/libtransitiond-gles.so; \
	install -m 0644 $(CLIB_DIR)/libtransitiond-gles.a $(DESTDIR)$(LIBDIR)/; \
	sed -e 's|^libdir=.*|libdir=$(LIBDIR)|' -e 's|^includedir=.*|includedir=$(INCLUDEDIR)|' \
	  $(CLIB_DIR)/transitiond-gles.pc > $(DESTDIR)$(PKGCONFIGDIR)/transitiond-gles.pc; \
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/transitiond-gles.pc; \
	echo "installed the native renderer library under $(DESTDIR)$(PREFIX)"

## install: executables, the example plugins, the data animators, the viewer page, the docs,
## the config (kept if already there), the systemd units, the system unit's sysusers.d entry and
## the C client library (install-clib) and the native renderer (install-gles).
install: release install-clib install-gles
	@set -e; bin=$$($(SWIFT) build -c release --show-bin-path); \
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(PLUGINDIR) $(DESTDIR)$(ANIMATORDIR) \
	  $(DESTDIR)$(VIEWERDIR) $(DESTDIR)$(SCENEDIR) $(DESTDIR)$(SCENEDIR)/images \
	  $(DESTDIR)$(CONFIGDIR) $(DESTDIR)$(SYSTEMD_USER_DIR) $(DESTDIR)$(SYSTEMD_SYSTEM_DIR) \
	  $(DESTDIR)$(SYSUSERS_DIR) $(DESTDIR)$(DOCDIR); \
	for name in $(EXECUTABLES); do install -m 0755 $$bin/$$name $(DESTDIR)$(BINDIR)/; done; \
	for name in $(PLUGINS); do install -m 0644 $$bin/lib$$name.so $(DESTDIR)$(PLUGINDIR)/; done; \
	install -m 0644 config/animators/*.json $(DESTDIR)$(ANIMATORDIR)/; \
	install -m 0644 Sources/TransitionViewer/viewer/* $(DESTDIR)$(VIEWERDIR)/; \
	install -m 0644 config/scenes/*.json $(DESTDIR)$(SCENEDIR)/; \
	install -m 0644 $(SCENE_IMAGES)/*.jpg $(SCENE_IMAGES)/*.png $(DESTDIR)$(SCENEDIR)/images/; \
	install -m 0644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/; \
	[ -e $(DESTDIR)$(CONFIGDIR)/transitiond.json ] || \
	  install -m 0644 config/transitiond.json $(DESTDIR)$(CONFIGDIR)/transitiond.json; \
	for unit in transitiond.service transitiond.socket; do \
	  $(UNIT_PATHS) config/systemd-user/$$unit > $(DESTDIR)$(SYSTEMD_USER_DIR)/$$unit; \
	  chmod 0644 $(DESTDIR)$(SYSTEMD_USER_DIR)/$$unit; done; \
	$(UNIT_PATHS) config/transitiond.service > $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/transitiond.service; \
	chmod 0644 $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/transitiond.service; \
	install -m 0644 config/transitiond.sysusers $(DESTDIR)$(SYSUSERS_DIR)/transitiond.conf; \
	echo "installed under $(DESTDIR)$(PREFIX) (config in $(DESTDIR)$(CONFIGDIR))"

## plugin: a plugin skeleton for the animator NAME in LANG (c or swift), written to DIR
## (default ../NAME, beside this repository), from config/templates: the build file, the
## animator (a crossfade to start from), scene.json and `make check`, which runs
## `transitiond check-plugin` on the built library.
TEMPLATES := config/templates
DIR ?= ../$(NAME)
plugin:
	@set -e; name='$(NAME)'; lang='$(LANG)'; dir='$(DIR)'; \
	echo "$$name" | grep -Eq '^[a-z0-9._-]{1,64}$$' || \
	  { echo "make plugin: NAME must be 1 to 64 characters from a-z 0-9 - . _ (got '$$name')" >&2; exit 64; }; \
	case "$$lang" in c|swift|json) ;; \
	  *) echo "make plugin: LANG must be c, swift or json (got '$$lang')" >&2; exit 64;; esac; \
	[ ! -e "$$dir" ] || [ -z "$$(ls -A "$$dir")" ] || \
	  { echo "make plugin: $$dir exists and is not empty" >&2; exit 73; }; \
	module=$$(echo "$$name" | sed -E 's/(^|[-._])([a-z0-9])/\U\2/g'); \
	case "$$module" in [0-9]*) module="Plugin$$module";; esac; \
	symbol=$$(echo "$$name" | tr -- '-.' '__'); \
	sdk='$(CURDIR)'; package=$$(basename "$$sdk" | tr 'A-Z' 'a-z'); \
	fill() { sed -e "s|@NAME@|$$name|g" -e "s|@MODULE@|$$module|g" -e "s|@SYMBOL@|$$symbol|g" \
	  -e "s|@SDK_PACKAGE@|$$package|g" -e "s|@SDK@|$$sdk|g" "$$1" > "$$2"; }; \
	umask 022; mkdir -p "$$dir"; \
	sed -e "s|\"animator\": \"default-slide\"|\"animator\": \"$$name\"|" \
	  config/scenes/default-slide-present.json > "$$dir/scene.json"; \
	if [ "$$lang" = json ]; then \
	  fill $(TEMPLATES)/json/Makefile.in "$$dir/Makefile"; \
	  fill $(TEMPLATES)/json/animator.json.in "$$dir/$$name.json"; \
	  echo "wrote the data animator $$name ($$name.json) in $$dir: cd $$dir && make check"; \
	  exit 0; \
	elif [ "$$lang" = c ]; then \
	  fill $(TEMPLATES)/c/Makefile.in "$$dir/Makefile"; \
	  sed -e "s|\"crossfade\"|\"$$name\"|g" -e "s|crossfade\\.%s|$$name.%s|g" \
	    -e "s|crossfade\.from-background|$$name.from-background|g" \
	    -e "s|crossfade\.to-background|$$name.to-background|g" \
	    -e "s|crossfade|$$symbol|g" -e "s|Crossfade|$$module|g" \
	    Plugins/Crossfade/crossfade.c > "$$dir/$$symbol.c"; \
	else \
	  mkdir -p "$$dir/Sources/$$module"; \
	  fill $(TEMPLATES)/swift/Makefile.in "$$dir/Makefile"; \
	  fill $(TEMPLATES)/swift/Package.swift.in "$$dir/Package.swift"; \
	  fill $(TEMPLATES)/swift/Animator.swift.in "$$dir/Sources/$$module/$${module}Animator.swift"; \
	  fill $(TEMPLATES)/swift/PluginEntry.swift.in "$$dir/Sources/$$module/PluginEntry.swift"; \
	  cp Plugins/exports.map "$$dir/exports.map"; \
	fi; \
	echo "wrote the $$lang plugin $$name (lib$$module.so) in $$dir: cd $$dir && make check"
