import BuiltinAnimators
import Foundation
import PluginLoader
import PluginValues
import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting

@testable import TransitionServer

/// A ``ServerCore`` on a ``FakeClock``, talking to ``FakePeer``s, with the real animators: the
/// example plugins `swift test` built and the repository's data animators (`config/animators`),
/// loaded once per process.
final class CoreHarness {
  /// The uid the fake daemon runs as; peers of this uid are admins.
  static let daemonUID: UInt32 = 4_242
  /// The pid the harness's core reports in `hello`, as the daemon supplies its own.
  static let processID: Int32 = 31_337
  /// A uid that is not an admin.
  static let userUID: UInt32 = 1_000

  /// The repository's data animators: album-flip, zoom-present, default-slide.
  static let animatorDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("config/animators").path

  /// The registry of the built plugins and the data animators, shared by every test (plugins
  /// are never unloaded).
  static let registry: PluginRegistry = {
    let registry = PluginRegistry(
      configuration: .init(
        searchPath: PluginSearchPath(
          configured: [], fromEnvironment: [],
          executableDirectory: PluginSearchPath.runningExecutableDirectory()),
        animatorPaths: [animatorDirectory]))
    registry.rescan()
    return registry
  }()

  let clock = FakeClock()
  /// What the core logged, timed on ``clock``.
  let log = RecordingLogSink()
  let core: ServerCore
  private var lastPeerID: UInt64 = 0

  /// A core of `limits` and the admin group `adminGroup` that logs what `logLevel` lets
  /// through (by default errors only, so that a log line never reads a clock that moves on
  /// each read).
  init(
    limits: ServerLimits = ServerLimits(), animators: AnimatorSource? = nil,
    fallback: FallbackAnimator = RegistryFallback(), adminGroup: AdminGroup? = nil,
    logLevel: LogLevel = .error
  ) {
    var config = ServerConfig()
    config.limits = limits
    config.logLevel = logLevel
    core = ServerCore(
      config: config, adminPolicy: AdminPolicy(daemonUID: Self.daemonUID, group: adminGroup),
      animators: animators ?? InProcessAnimatorSource(registry: Self.registry),
      fallback: fallback, clock: clock,
      logger: Logger(level: logLevel, clock: clock, sink: log), processID: Self.processID)
  }

  /// A peer of `uid` (nil: no identity), connected to the core.
  @discardableResult
  func connect(uid: UInt32? = CoreHarness.userUID) -> FakePeer {
    lastPeerID += 1
    let peer = FakePeer(
      id: lastPeerID, identity: uid.map { PeerIdentity(pid: 100, uid: $0, gid: $0) })
    peer.onClose = { [unowned core] peer in core.peerClosed(peer) }
    core.connect(peer)
    return peer
  }

  /// Sends `line` from `peer` and returns every line sent to it since its last read.
  @discardableResult
  func send(_ line: String, from peer: FakePeer) -> [JSONValue] {
    core.receive(line: Array(line.utf8), from: peer)
    return peer.readLines()
  }

  /// Sends `line` and returns its reply, the first line sent; records an issue when there is
  /// none.
  func reply(_ line: String, from peer: FakePeer, sourceLocation: SourceLocation = #_sourceLocation)
    -> JSONValue
  {
    let lines = send(line, from: peer)
    guard let first = lines.first else {
      Issue.record("no reply to \(line)", sourceLocation: sourceLocation)
      return .null
    }
    return first
  }

  /// Begins a crossfade present (2 layers) of `duration` seconds and returns its session id.
  func beginCrossfade(
    from peer: FakePeer, duration: Double = 0.5, extra: String = "",
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> String {
    let reply = reply(Self.beginCrossfadeLine(duration: duration, extra: extra), from: peer)
    #expect(reply["ok"] == .bool(true), "\(reply)", sourceLocation: sourceLocation)
    return reply["session"]?.stringValue ?? ""
  }

  /// The `begin` line of a crossfade present of `duration` seconds, with `extra` members
  /// (`,"k":v`).
  static func beginCrossfadeLine(duration: Double = 0.5, extra: String = "") -> String {
    #"{"op":"begin","animator":"crossfade","duration":\#(duration)\#(extra),"context":{"operation":"present","container":[100,200],"selected":"cell","from":{"layers":[{"id":"cell","frame":[10,10,20,20]}]},"to":{"layers":[{"id":"detail","frame":[0,0,100,200]}]}}}"#
  }
}

extension ServerLimits {
  /// The default limits with `change` made to them.
  static func changed(_ change: (inout ServerLimits) -> Void) -> ServerLimits {
    var limits = ServerLimits()
    change(&limits)
    return limits
  }
}

extension JSONValue {
  /// The error code of an error reply.
  var errorCode: String? { self["error"]?["code"]?.stringValue }
  /// The `event` of an event line.
  var event: String? { self["event"]?.stringValue }
}

extension [JSONValue] {
  /// The frame events among these lines.
  var frames: [JSONValue] { filter { $0.event == "frame" } }
}

extension InProcessAnimatorSource {
  /// The animators of `registry`, loaded in this process.
  convenience init(registry: PluginRegistry) {
    self.init(listing: { registry.animators }, makeTimeline: registry.makeTimeline)
  }
}

/// The fallback of the tests, as the daemon's built-in one: default-slide (the embedded data
/// file), listed as the loaded data animators list it, called synchronously; counts its calls.
final class RegistryFallback: FallbackAnimator {
  var calls = 0
  var info: RegisteredAnimator { CoreHarness.registry.animator(named: "default-slide")! }
  func makeTimeline(context: TransitionContext) -> AnimatorAnswer {
    calls += 1
    return BuiltinAnimators.defaultSlide.answer(for: context)
  }
}
