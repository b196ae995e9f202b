import PluginLoader
import PluginValues

/// What ``HostSupervisor`` reads from the world: the clock, the host's CPU, and the files of a
/// scan. The daemon's is ``SystemSupervisorEnvironment``; tests give a clock they advance by
/// hand, CPU samples they choose and files that need not exist.
public protocol HostSupervisorEnvironment {
  /// Seconds on the monotonic clock the deadlines are measured on.
  var now: Double { get }
  /// The scheduling state and CPU time of the host `pid`, or nil when unknown.
  func cpuSample(pid: Int32) -> ProcessCPUSample?
  /// Finds, judges and opens the files of a scan (``ScanFiles/open(_:skipping:)``); the
  /// supervisor hands every descriptor to the shell with the message that passes it.
  func scanFiles(_ configuration: PluginRegistry.Configuration, skipping: Set<String>)
    -> ScanFiles
}

/// The daemon's environment: its loop's clock, `/proc/<pid>/stat`, and the files on disk.
public struct SystemSupervisorEnvironment: HostSupervisorEnvironment {
  private let clock: () -> Double

  /// - Parameter clock: the monotonic clock the daemon's timers run on.
  public init(clock: @escaping () -> Double) {
    self.clock = clock
  }

  public var now: Double { clock() }

  public func cpuSample(pid: Int32) -> ProcessCPUSample? { ProcessCPUSample.read(pid: pid) }

  public func scanFiles(_ configuration: PluginRegistry.Configuration, skipping: Set<String>)
    -> ScanFiles
  {
    ScanFiles.open(configuration, skipping: skipping)
  }
}
