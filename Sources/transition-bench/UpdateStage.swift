import BuiltinAnimators
import Foundation
import PluginLoader
import TransitionServer

/// An `update`'s CPU in the server core, in process: an interactive zoom-present session with
/// one subscriber, each `update` line received and its reply and frame written to a peer that
/// keeps them in memory. What `update` measures end to end, without the sockets and the
/// wake-ups; read its instructions under `valgrind --tool=callgrind`. Back to back the
/// updates run warm; a few milliseconds apart, as a finger sends them, what they touch has
/// left the caches in between, as it has in the daemon.
struct UpdateStage {
  let options: BenchOptions
  let report: BenchReport

  func run() throws {
    let registry = PluginRegistry(
      configuration: .init(
        searchPath: PluginSearchPath(configured: [], executableDirectory: nil),
        allowInsecurePlugins: true, animatorPaths: [DaemonProcess.animatorDirectory]))
    _ = registry.rescan()
    let clock = InProcessCore.StillClock(now: 1_000)
    let core = ServerCore(
      config: ServerConfig(), adminPolicy: AdminPolicy(daemonUID: getuid(), group: nil),
      animators: InProcessCore.RegistryAnimators(registry), fallback: BuiltinFallback(),
      clock: clock,
      logger: Logger(level: .error, clock: clock, sink: InProcessCore.DiscardedLog()),
      processID: getpid())
    let peer = InProcessCore.MemoryPeer(
      id: 1, identity: PeerIdentity(pid: getpid(), uid: getuid(), gid: getgid()))
    core.connect(peer)
    core.receive(
      line: Array(
        #"{"op":"begin","session":"u0","interactive":true,"duration":1,"context":\#(BenchContexts.zoomPresent)}"#
          .utf8), from: peer)
    core.receive(
      line: Array(#"{"op":"subscribe","session":"u0","fps":60,"clock":"wall"}"#.utf8), from: peer)
    guard peer.pendingOutputBytes > 0 else { throw BenchError("the zoom present did not begin") }
    peer.dropUnread()
    let updates = max(options.updates, 100)
    let lines = (0..<updates).map { index in
      Array(#"{"op":"update","session":"u0","progress":\#(Double(100 + index % 800) / 1000)}"#.utf8)
    }
    var samples: [Double] = []
    var written = 0
    for _ in 0..<options.runs {
      let start = Monotonic.now
      written += Self.receive(lines, core: core, peer: peer)
      samples.append((Monotonic.now - start) / Double(updates))
    }
    guard written > 0 else { throw BenchError("no update was answered") }
    report.add(
      "stages", "daemon: an update → its reply and frame", Percentiles(samples).median * 1e6,
      "µs",
      "zoom present, one subscriber, in process; \(written / (updates * options.runs)) bytes written an update; median of \(options.runs) × \(updates)"
    )
    var apart: [Double] = []
    for line in lines.prefix(200) {
      usleep(UInt32.random(in: 2_000...8_000))
      let start = Monotonic.now
      _ = Self.receive([line], core: core, peer: peer)
      apart.append(Monotonic.now - start)
    }
    let spaced = Percentiles(apart)
    report.add(
      "stages", "daemon: an update → its reply and frame, 2–8 ms apart", spaced.median * 1e6,
      "µs",
      "each timed alone, its state and code gone cold since the one before; p90 \(BenchReport.format(spaced.value(0.9) * 1e6)) µs"
    )
  }

  /// Has `core` receive `lines` from `peer`, dropping what it writes; returns the bytes
  /// written. Its own function, so that `valgrind --tool=callgrind
  /// --toggle-collect='*UpdateStage*receive*'` counts the updates alone.
  @inline(never)
  private static func receive(_ lines: [[UInt8]], core: ServerCore, peer: InProcessCore.MemoryPeer)
    -> Int
  {
    var written = 0
    for line in lines {
      core.receive(line: line, from: peer)
      written += peer.pendingOutputBytes
      peer.dropUnread()
    }
    return written
  }
}
