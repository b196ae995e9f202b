import PluginLoader
import PluginValues

extension HostSupervisor {
  /// What the supervisor is waiting for when a host's bytes arrive.
  public enum Stage: CaseIterable, Sendable {
    /// The first scan is at the host: `loading` and `scanned` are expected.
    case scanning
    /// A timeline call (call 1, animator `fuzz`) is at the host: its `answer` is expected.
    case callAtHost
    /// Nothing is asked: every message is unexpected.
    case idle
  }

  /// The effects of `bytes` written by a host, as the daemon reads them: a function from the
  /// host's bytes to the daemon's decisions, for a fuzzer (docs/security.md). The supervisor
  /// starts with a host (pid 1) at `stage`, in a fixed world (the clock at 0, no CPU samples,
  /// one library `/fuzz/libFuzz.so` and one data animator `/fuzz/fuzz.json` handed over as
  /// descriptors 1000 and 1001, which are never opened); the bytes arrive in one read.
  ///
  /// Whatever the bytes, the supervisor never traps, and every effect is one the shell can
  /// carry out: a hostile host can only get itself killed.
  public static func effects(ofHostBytes bytes: [UInt8], at stage: Stage) -> [Effect] {
    var supervisor = HostSupervisor(settings: fuzzSettings, environment: FixedEnvironment())
    _ = supervisor.handle(.start)
    _ = supervisor.handle(.hostStarted(pid: 1))
    if stage != .scanning {
      let report = ScanReport(
        animators: [
          RegisteredAnimator(
            name: "fuzz", operations: [.push], defaultDuration: 1, pluginName: "fuzz",
            pluginVersion: "1", libraryPath: FixedEnvironment.library)
        ], diagnostics: [])
      _ = supervisor.handle(.received(HostMessage(.scanned, payload: report.payload).encoded))
    }
    if stage == .callAtHost {
      _ = supervisor.handle(.makeTimeline(1, animator: "fuzz", contextJSON: Array("{}".utf8)))
    }
    return supervisor.handle(.received(bytes))
  }

  private static let fuzzSettings = Settings(
    registry: PluginRegistry.Configuration(
      searchPath: PluginSearchPath(configured: [], executableDirectory: nil), trustedUID: 0),
    callTimeout: 0.25, loadTimeout: 5, maxTimelineBytes: 1 << 20, initialBackoff: 0.1,
    maximumBackoff: 5, quarantineStrikes: 3)

  /// The fixed world of ``effects(ofHostBytes:at:)``.
  private struct FixedEnvironment: HostSupervisorEnvironment {
    static let library = "/fuzz/libFuzz.so"
    var now: Double { 0 }
    func cpuSample(pid: Int32) -> ProcessCPUSample? { nil }
    func scanFiles(_ configuration: PluginRegistry.Configuration, skipping: Set<String>)
      -> ScanFiles
    {
      ScanFiles(files: [
        ScanFiles.File(kind: .library, path: Self.library, descriptor: 1000),
        ScanFiles.File(kind: .data, path: "/fuzz/fuzz.json", name: "fuzz", descriptor: 1001),
      ])
    }
  }
}
