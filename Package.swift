// swift-tools-version:6.0
import PackageDescription

/// Linker settings of the Swift plugins: a version script that exports
/// `transitiond_plugin_entry` alone (docs/plugins.md, "Exports"). lld, which the toolchain
/// ships, also leaves the hidden symbols out of the dynamic symbol table (gold keeps them there
/// as local entries).
let pluginExports: [LinkerSetting] = [
  .unsafeFlags([
    "-use-ld=lld", "-Xlinker", "--version-script=\(Context.packageDirectory)/Plugins/exports.map",
  ])
]

/// Settings of the modules every frame runs through whose classes a frame touches (the event
/// loop, frame streaming with its streams and frame clocks, the server core, the daemon):
/// their release builds leave out the run-time exclusivity checks, as the Swift standard
/// library's do. Each check is a call, a thread-local lookup and a set insert on every access
/// to a class's stored property that the compiler cannot prove alone, several a frame per
/// subscriber (docs/performance.md, "Nothing a frame does not need"). Debug builds, which the
/// test suite, the sanitizers and the fuzzer run, keep them. With the checks on in the loop,
/// the core (which then held the streams and clocks) and the daemon, one reader's daemon CPU a
/// frame went from 5.00 to 5.50 µs (71,774 against 54,077 frames/s) and the album-flip tap's
/// first frame from 0.750 to 0.897 ms (p50; `transition-bench stream scale tap update --runs 3
/// --baseline`, both builds interleaved in one run). The encoders, whose frame path is
/// structs, gain nothing from it: without the checks the encode of the album-flip push frame
/// ran 310,996,332 instructions over 2,000 frames, with them 311,018,405 (+0.007 %;
/// `valgrind --tool=callgrind transition-bench encode --runs 1 --frames 2000`,
/// FrameEncoder.encode inclusive).
let framePathSettings: [SwiftSetting] = [
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

/// transitiond: a transition-animation daemon, its CLI, its engine and its animator plugins.
///
/// Pipeline: context → animator (plugin) → timeline → evaluate → encode → stream.
let package = Package(
  name: "transitiond",
  products: [
    .executable(name: "transitiond", targets: ["transitiond"]),
    .executable(name: "transitionctl", targets: ["transitionctl"]),
    .executable(name: "transition-bench", targets: ["transition-bench"]),
    .executable(name: "transition-soak", targets: ["transition-soak"]),
    .library(name: "TransitionJSON", targets: ["TransitionJSON"]),
    .executable(name: "transition-fuzz", targets: ["transition-fuzz"]),
    .library(name: "TransitionKit", targets: ["TransitionKit"]),
    .library(name: "TransitionClient", targets: ["TransitionClient"]),
    .library(name: "TransitionPluginSDK", targets: ["TransitionPluginSDK"]),
    // Example animator plugins: shared libraries loaded by the daemon at run time. The built-in
    // animators are data files (config/animators), read by the plugin host.
    .library(name: "CubeTurn", type: .dynamic, targets: ["CubeTurn"]),
    .library(name: "Crossfade", type: .dynamic, targets: ["Crossfade"]),
  ],
  targets: [
    // C dependencies.
    .systemLibrary(
      name: "CLibevent",
      pkgConfig: "libevent",
      providers: [.apt(["libevent-dev"])]
    ),
    .target(name: "CTransitionPlugin"),
    // prctl, pidfd_open and close_range, which Swift cannot call directly (variadic or raw
    // system calls), for the plugin host's sandbox and its supervision.
    .target(name: "CProcessControl"),
    // The C client library (docs/client-c.md): a header any language's FFI can use, built
    // also by the Makefile as a shared and a static library.
    .target(name: "CTransitionClient"),
    // The native renderer (docs/renderer-gles.md): frames drawn with OpenGL ES 3, content with
    // cairo and pango, offscreen through EGL's surfaceless platform; over Debian's libraries.
    .systemLibrary(
      name: "CEGL", pkgConfig: "egl", providers: [.apt(["libegl-dev", "libgles-dev"])]),
    .systemLibrary(
      name: "CPangoCairo", pkgConfig: "pangocairo", providers: [.apt(["libpango1.0-dev"])]),
    .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
    .systemLibrary(name: "CLibJPEG", pkgConfig: "libjpeg", providers: [.apt(["libjpeg-dev"])]),
    .target(
      name: "CTransitionGLES",
      dependencies: ["CTransitionClient", "CEGL", "CPangoCairo", "CLibPNG", "CLibJPEG"],
      linkerSettings: [
        .linkedLibrary("EGL"), .linkedLibrary("GLESv2"), .linkedLibrary("pangocairo-1.0"),
        .linkedLibrary("pango-1.0"), .linkedLibrary("gobject-2.0"), .linkedLibrary("glib-2.0"),
        .linkedLibrary("cairo"), .linkedLibrary("png16"), .linkedLibrary("jpeg"),
      ]),

    // JSON: the typed value, its parser and writer, and a path-naming field reader.
    .target(name: "TransitionJSON"),

    // The engine and its schema codec (contexts, timelines): pure Swift, no I/O.
    .target(name: "TransitionKit", dependencies: ["TransitionJSON"]),

    // Plugin boundary.
    .target(name: "TransitionPluginABI", dependencies: ["TransitionKit", "CTransitionPlugin"]),
    .target(
      name: "TransitionPluginSDK",
      dependencies: ["TransitionKit", "TransitionJSON", "TransitionPluginABI", "CTransitionPlugin"]),
    // Animators written as data (docs/animators.md): the file format's reader and validator,
    // its expressions, and the compiler from a file and a context to a timeline. No I/O.
    .target(name: "DataAnimator", dependencies: ["TransitionKit", "TransitionJSON"]),
    // The daemon's built-in fallback, `default-slide`, as data embedded in the binary, and as
    // the server core's `FallbackAnimator` (`BuiltinFallback`), run in process.
    .target(
      name: "BuiltinAnimators",
      dependencies: ["DataAnimator", "PluginLoader", "PluginValues", "TransitionServer"],
      resources: [.embedInCode("default-slide.json")]),
    // What the plugin side and the server both speak of: a loaded animator's listing
    // (`RegisteredAnimator`), an animator's answer (`PluginTimelineResult`, `PluginCallFault`)
    // and what a scan noticed (`PluginDiagnostic`). Values only, no loading.
    .target(name: "PluginValues", dependencies: ["TransitionKit"]),
    .target(
      name: "PluginLoader",
      dependencies: [
        "TransitionKit", "TransitionPluginABI", "CTransitionPlugin", "DataAnimator",
        "TransitionPluginSDK", "PluginValues", "CProcessControl",
      ]),
    // `transitiond check-plugin`: the load checks and the drawn-frame checks of an animator.
    .target(
      name: "PluginCheck",
      dependencies: [
        "PluginLoader", "PluginValues", "TransitionKit", "TransitionJSON", "DataAnimator",
      ]),
    // The plugin host's protocol and its supervision, the parent's side: the frames between the
    // daemon and the host, the host's sandbox settings and command line, spawning it, and the
    // supervisor as a state machine with its restart and quarantine policy (docs/plugins.md).
    .target(
      name: "PluginHost",
      dependencies: [
        "PluginLoader", "PluginValues", "TransitionKit", "TransitionJSON", "CProcessControl",
        "UnixIO",
      ]),
    // The plugin host process itself, the child's side: its serving loop, which loads the
    // plugins (dlopen) and answers the supervisor's scans and calls (`PluginHostService`).
    .target(
      name: "PluginHostChild",
      dependencies: ["PluginHost", "PluginLoader", "PluginValues", "CProcessControl", "UnixIO"]),

    // Frame streaming, from a session's time to the output queued for its subscribers:
    // evaluation and encoding (`FrameRenderer`), the full and delta encoders, key frames, the
    // stream's one full/delta/key decision (`FrameStream`, `FrameSync`), the frame clocks'
    // grid, render-ahead, slicing and per-uid shares, and the presenter that holds and
    // releases output. It sees a session, a subscriber and an output through small protocols
    // (`StreamedSession`, `FrameSubscriber`, `FrameSink`, `FrameOutput`) and time through
    // `ServerClock`. No I/O.
    .target(
      name: "FrameStreaming", dependencies: ["TransitionKit", "TransitionJSON", "TransitionWire"],
      swiftSettings: framePathSettings),

    // Wire codec, event loop, server, client.
    .target(name: "TransitionWire", dependencies: ["TransitionKit", "TransitionJSON"]),
    // The pure stages of a line transport: the line framer and the output batch (when output
    // leaves: write, hold, flush), shared by the Unix socket and HTTP event-stream transports.
    .target(name: "LineTransport"),
    .target(
      name: "LibeventLoop", dependencies: ["CLibevent", "LineTransport", "UnixDaemon", "UnixIO"],
      swiftSettings: framePathSettings),
    // What the daemon needs of the OS beside its loop: the socket's lock and the ownership
    // checks of its files, systemd's readiness, socket activation and watchdog.
    .target(name: "UnixDaemon", dependencies: ["UnixIO"]),
    // The server core: sessions, subscriptions, the op table. No sockets, libevent, files or
    // plugin loading: it sees clients through `Peer`, time through `ServerClock`, animators
    // through `AnimatorSource`, and logs through a `LogSink` (docs/architecture.md).
    .target(
      name: "TransitionServer",
      dependencies: [
        "FrameStreaming", "TransitionJSON", "TransitionKit", "TransitionWire", "PluginValues",
      ],
      swiftSettings: framePathSettings
    ),
    // The server core's fakes, shared by its tests and the fuzzer (no shipped binary links
    // them): a clock advanced by hand (`FakeClock`), a peer read by hand (`FakePeer`) and
    // animators run in process from closures (`InProcessAnimatorSource`). No plugin loading.
    .target(
      name: "TransitionServerTesting",
      dependencies: [
        "FrameStreaming", "TransitionServer", "TransitionJSON", "PluginValues", "LineTransport",
      ]),
    .target(
      name: "TransitionClient", dependencies: ["TransitionWire", "TransitionJSON", "UnixIO"]),
    // Unix system calls for every side: the error type, socket addresses, connect and bind,
    // the one write loop, the monotonic clock, the blocking line client.
    .target(name: "UnixIO", dependencies: ["LineTransport"]),
    // Rendering recordings to pictures: the native renderer (CTransitionGLES) or the DevTools
    // protocol over a pipe to headless Chromium and the viewer page's capture; the frame
    // schedule and the ffmpeg encoder.
    .target(
      name: "TransitionRender",
      dependencies: ["TransitionJSON", "TransitionWire", "UnixIO", "CTransitionGLES"]),
    // The viewer page (static files, no build step) and where to find it.
    .target(name: "TransitionViewer", resources: [.copy("viewer")]),

    // What the daemon needs beside the core and the loop, none of it libevent: its command
    // line, its config file (`DaemonConfig`) and the user and group lookups (NSS) it needs,
    // the plugin host's settings, the installed layout, the log sink on standard error, and
    // the viewer listener's routing of an HTTP request (`ViewerRequest`).
    .target(
      name: "DaemonSupport",
      dependencies: [
        "TransitionServer", "TransitionJSON", "TransitionKit", "TransitionWire", "UnixIO",
        "PluginHost", "PluginHostChild", "PluginLoader", "PluginCheck", "CProcessControl",
      ]),

    // Executables.
    // The daemon: config, signals, systemd, the Unix listener, the HTTP viewer listener, and
    // the adapters that turn a socket or an event stream into a `Peer` and libevent's timers
    // into a `ServerClock`; `check-plugin`.
    .executableTarget(
      name: "transitiond",
      dependencies: [
        "FrameStreaming", "TransitionServer", "TransitionJSON", "TransitionKit", "TransitionWire",
        "LibeventLoop", "PluginLoader", "PluginValues", "UnixIO", "UnixDaemon", "TransitionViewer",
        "PluginHost",
        "BuiltinAnimators", "DataAnimator", "DaemonSupport",
      ], swiftSettings: framePathSettings),
    .executableTarget(
      name: "transitionctl",
      dependencies: [
        "TransitionClient", "TransitionJSON", "TransitionWire", "TransitionKit", "UnixIO",
        "TransitionRender", "TransitionViewer", "CTransitionGLES",
      ]
    ),
    .executableTarget(
      name: "transition-bench",
      dependencies: [
        "FrameStreaming",
        "BuiltinAnimators", "DaemonLauncher", "DaemonSupport", "DataAnimator", "PluginLoader",
        "PluginValues", "TransitionJSON",
        "TransitionKit", "TransitionPluginSDK", "TransitionServer", "TransitionWire", "UnixIO",
      ]),
    // Starting a `transitiond` on a socket and waiting, with a deadline, until it accepts:
    // the one launcher of the integration tests, the benchmark and the soak.
    .target(name: "DaemonLauncher", dependencies: ["UnixIO"]),
    // What the integration suites share (not shipped): the daemon under test on a temporary
    // socket, transitionctl runs, headless Chromium, the viewer's harness, PNG reading.
    .target(
      name: "IntegrationSupport",
      dependencies: [
        "DaemonLauncher", "TransitionClient", "TransitionJSON", "TransitionWire",
        "TransitionKit", "TransitionViewer", "UnixIO", "DaemonSupport",
      ]),
    // The soak (`make soak`): the judgement of a metric's growth and of frame lateness, pure;
    // and the driver, the daemon under a churn from several processes of itself.
    .target(name: "SoakAnalysis"),
    .executableTarget(
      name: "transition-soak",
      dependencies: [
        "DaemonLauncher", "SoakAnalysis", "TransitionClient", "TransitionJSON", "TransitionWire",
        "UnixIO",
      ]),

    // The fuzzer, one check a byte stream the daemon reads: RequestCheck takes bytes through
    // the request path and ConversationCheck plays them as a conversation with the server core,
    // ViewerRequestCheck through the viewer's HTTP request path, HostMessageCheck as a hostile
    // plugin host's messages, AnimatorFileCheck as a data animator file; `make fuzz` builds
    // transition-fuzz with -DFUZZING and libFuzzer (a plain build gets a stub).
    .target(
      name: "RequestFuzzing",
      dependencies: [
        "FrameStreaming",
        "TransitionJSON", "TransitionKit", "TransitionWire", "PluginLoader", "PluginValues",
        "TransitionServer", "TransitionServerTesting", "DataAnimator", "TransitionPluginSDK",
        "PluginHost", "CLibevent", "TransitionViewer", "DaemonSupport", "BuiltinAnimators",
      ]),
    .executableTarget(
      name: "transition-fuzz", dependencies: ["RequestFuzzing"],
      swiftSettings: [.unsafeFlags(["-parse-as-library"])]),

    // Example animators: one in Swift on the SDK, one in plain C.
    .target(
      name: "CubeTurn", dependencies: ["TransitionPluginSDK"], path: "Plugins/CubeTurn",
      linkerSettings: pluginExports),
    .target(
      name: "Crossfade", dependencies: ["CTransitionPlugin"], path: "Plugins/Crossfade",
      linkerSettings: pluginExports),

    // Tests.
    .testTarget(name: "TransitionJSONTests", dependencies: ["TransitionJSON"]),
    .testTarget(name: "TransitionKitTests", dependencies: ["TransitionKit", "TransitionJSON"]),
    .testTarget(
      name: "DataAnimatorTests",
      dependencies: ["DataAnimator", "TransitionKit", "TransitionJSON", "TransitionPluginSDK"]),
    .testTarget(
      name: "FrameStreamingTests",
      dependencies: ["FrameStreaming", "TransitionWire", "TransitionKit", "TransitionJSON"]),
    .testTarget(
      name: "TransitionWireTests",
      dependencies: ["FrameStreaming", "TransitionWire", "TransitionKit", "TransitionJSON"]),
    .testTarget(
      name: "LibeventLoopTests", dependencies: ["LibeventLoop", "UnixDaemon", "UnixIO"]),
    .testTarget(name: "UnixIOTests", dependencies: ["UnixIO"]),
    .testTarget(name: "LineTransportTests", dependencies: ["LineTransport"]),
    .testTarget(name: "SoakAnalysisTests", dependencies: ["SoakAnalysis"]),
    .testTarget(name: "TransitionRenderTests", dependencies: ["TransitionRender"]),
    .testTarget(
      name: "TransitionServerTests",
      dependencies: [
        "FrameStreaming",
        "TransitionServer", "TransitionServerTesting", "TransitionWire", "TransitionKit",
        "TransitionJSON", "PluginLoader", "PluginValues",
      ]
    ),
    .testTarget(
      name: "DaemonSupportTests",
      dependencies: [
        "DaemonSupport", "TransitionServer", "TransitionServerTesting", "TransitionJSON",
        "TransitionKit", "UnixIO",
      ]),
    .testTarget(
      name: "TransitionClientTests",
      dependencies: ["TransitionClient", "TransitionJSON", "TransitionWire"]),
    .testTarget(
      name: "TransitionPluginSDKTests",
      dependencies: [
        "TransitionPluginSDK", "TransitionPluginABI", "TransitionKit", "CTransitionPlugin",
      ]
    ),
    .testTarget(
      name: "PluginHostTests",
      dependencies: [
        "PluginHost", "PluginLoader", "PluginValues", "TransitionKit", "TransitionJSON",
      ]
    ),
    .testTarget(
      name: "PluginLoaderTests",
      // Plugins are loaded at run time, never linked: each exports `transitiond_plugin_entry`,
      // so linking two into one binary fails. `swift test` builds every lib<Name>.so anyway.
      dependencies: [
        "PluginLoader", "PluginValues", "PluginCheck", "TransitionKit", "DataAnimator",
      ]
    ),
    .testTarget(
      name: "AnimatorTests",
      // The built-in animators are read from config/animators as the plugin host reads them;
      // the example plugin is loaded from its built lib<Name>.so through the C ABI, never linked
      // (it exports `transitiond_plugin_entry`); `swift test` builds it.
      dependencies: [
        "FrameStreaming",
        "TransitionJSON", "TransitionKit", "CTransitionPlugin", "PluginCheck", "DataAnimator",
        "TransitionPluginSDK", "TransitionPluginABI", "TransitionWire",
      ],
      exclude: ["Golden"]
    ),
    .testTarget(
      name: "RequestFuzzingTests",
      // Loads the built lib<Name>.so animators, as the fuzzer does; `swift test` builds them.
      dependencies: [
        "RequestFuzzing", "TransitionKit", "TransitionServer", "PluginHost", "DaemonSupport",
      ]
    ),
    // The integration suites, each runnable alone: the daemon over its socket (DaemonTests),
    // the command-line tools (CLITests: transitionctl, `transitiond check-plugin`, `make
    // plugin`), and everything that needs Chromium (BrowserTests). Each starts the real
    // binaries, which load the real plugins from the products directory.
    .testTarget(
      name: "DaemonTests",
      dependencies: [
        "IntegrationSupport", "TransitionClient", "TransitionJSON", "TransitionWire",
        "TransitionKit", "TransitionViewer", "UnixIO", "DaemonSupport", "transitiond",
        "transitionctl",
      ]
    ),
    .testTarget(
      name: "CLITests",
      dependencies: [
        "IntegrationSupport", "TransitionClient", "TransitionJSON", "TransitionWire",
        "TransitionKit", "TransitionViewer", "UnixIO", "DaemonSupport", "transitiond",
        "transitionctl",
      ]
    ),
    .testTarget(
      name: "BrowserTests",
      dependencies: [
        "IntegrationSupport", "TransitionClient", "TransitionJSON", "TransitionWire",
        "TransitionKit", "TransitionViewer", "UnixIO", "DaemonSupport", "transitiond",
        "transitionctl", "TransitionRender", "CTransitionGLES",
      ]
    ),
  ]
)
