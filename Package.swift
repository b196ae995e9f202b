// swift-tools-version:6.0
import PackageDescription

/// transitiond: a transition-animation daemon, its CLI, its engine and its animator plugins.
///
/// Pipeline: context → animator (plugin) → timeline → evaluate → encode → stream.
let package = Package(
  name: "transitiond",
  products: [
    .executable(name: "transitiond", targets: ["transitiond"]),
    .executable(name: "transitionctl", targets: ["transitionctl"]),
    .executable(name: "transition-bench", targets: ["transition-bench"]),
    .library(name: "TransitionKit", targets: ["TransitionKit"]),
    .library(name: "TransitionClient", targets: ["TransitionClient"]),
    .library(name: "TransitionPluginSDK", targets: ["TransitionPluginSDK"]),
    // Animator plugins: shared libraries loaded by the daemon at run time.
    .library(name: "AlbumFlip", type: .dynamic, targets: ["AlbumFlip"]),
    .library(name: "ZoomPresent", type: .dynamic, targets: ["ZoomPresent"]),
    .library(name: "DefaultSlide", type: .dynamic, targets: ["DefaultSlide"]),
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

    // The engine: pure Swift, no I/O.
    .target(name: "TransitionKit"),

    // Plugin boundary.
    .target(name: "TransitionPluginSDK", dependencies: ["TransitionKit", "CTransitionPlugin"]),
    .target(name: "PluginHost", dependencies: ["TransitionKit", "CTransitionPlugin"]),
    // The plugin host process and its protocol: the frames between the daemon and the host,
    // the host's sandbox and serving loop, the restart and quarantine policy (docs/plugins.md).
    .target(
      name: "PluginIsolation",
      dependencies: ["PluginHost", "TransitionKit", "CProcessControl"]),

    // Wire codec, event loop, server, client.
    .target(name: "TransitionWire", dependencies: ["TransitionKit"]),
    .target(name: "LibeventLoop", dependencies: ["CLibevent"]),
    // The server core: sessions, subscriptions, the op table. No sockets and no libevent: it
    // sees clients through `Peer` and time through `ServerClock` (docs/architecture.md).
    .target(
      name: "TransitionServer",
      dependencies: ["TransitionKit", "TransitionWire", "PluginHost"]
    ),
    .target(name: "TransitionClient", dependencies: ["TransitionWire"]),
    // The viewer page (static files, no build step) and where to find it.
    .target(name: "TransitionViewer", resources: [.copy("viewer")]),

    // Executables.
    // The daemon: config, signals, systemd, the Unix listener, and the adapters that turn a
    // socket into a `Peer` and libevent's timers into a `ServerClock`.
    .executableTarget(
      name: "transitiond",
      dependencies: [
        "TransitionServer", "TransitionKit", "TransitionWire", "LibeventLoop", "PluginHost",
        "PluginIsolation", "CProcessControl", "DefaultSlideAnimator",
      ]),
    .executableTarget(name: "transitionctl", dependencies: ["TransitionClient"]),
    .executableTarget(
      name: "transition-bench",
      dependencies: ["TransitionKit", "TransitionWire", "PluginHost"]
    ),

    // Built-in animators (Swift, on the SDK) and an example animator written in plain C.
    .target(name: "AlbumFlip", dependencies: ["TransitionPluginSDK"], path: "Plugins/AlbumFlip"),
    .target(
      name: "ZoomPresent", dependencies: ["TransitionPluginSDK"], path: "Plugins/ZoomPresent"),
    // default-slide's animator is a library both its plugin and the daemon (its built-in
    // fallback) link; only the plugin's thin entry exports `transitiond_plugin_entry`.
    .target(
      name: "DefaultSlideAnimator", dependencies: ["TransitionPluginSDK"],
      path: "Plugins/DefaultSlide/Animator"),
    .target(
      name: "DefaultSlide", dependencies: ["DefaultSlideAnimator", "TransitionPluginSDK"],
      path: "Plugins/DefaultSlide/Entry"),
    .target(name: "Crossfade", dependencies: ["CTransitionPlugin"], path: "Plugins/Crossfade"),

    // Tests.
    .testTarget(name: "TransitionKitTests", dependencies: ["TransitionKit"]),
    .testTarget(name: "TransitionWireTests", dependencies: ["TransitionWire", "TransitionKit"]),
    .testTarget(name: "LibeventLoopTests", dependencies: ["LibeventLoop"]),
    .testTarget(
      name: "TransitionServerTests",
      dependencies: ["TransitionServer", "TransitionWire", "TransitionKit", "PluginHost"]
    ),
    .testTarget(name: "TransitionClientTests", dependencies: ["TransitionClient"]),
    .testTarget(
      name: "TransitionPluginSDKTests",
      dependencies: ["TransitionPluginSDK", "TransitionKit", "CTransitionPlugin"]
    ),
    .testTarget(
      name: "PluginIsolationTests",
      dependencies: ["PluginIsolation", "PluginHost", "TransitionKit"]
    ),
    .testTarget(
      name: "PluginHostTests",
      // Plugins are loaded at run time, never linked: each exports `transitiond_plugin_entry`,
      // so linking two into one binary fails. `swift test` builds every lib<Name>.so anyway.
      dependencies: ["PluginHost", "TransitionKit"]
    ),
    .testTarget(
      name: "AnimatorTests",
      // The animators are loaded from their built lib<Name>.so through the C ABI, never linked
      // (each exports `transitiond_plugin_entry`); `swift test` builds them.
      dependencies: ["TransitionKit", "CTransitionPlugin"]
    ),
    .testTarget(
      name: "IntegrationTests",
      // Starts the real binaries, which load the real plugins from the products directory.
      dependencies: [
        "TransitionClient", "TransitionWire", "TransitionKit", "TransitionViewer", "transitiond",
        "transitionctl",
      ]
    ),
  ]
)
