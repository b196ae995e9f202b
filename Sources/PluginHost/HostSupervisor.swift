import PluginLoader
import PluginValues
import TransitionKit

/// The plugin host's supervisor as a state machine (docs/plugins.md, "Isolation"): events in
/// (a request, bytes from the host, its end, the clock), effects out (start, send, kill,
/// answer, log), and no process, socket or timer of its own. The daemon's
/// `PluginHostSupervisor` is the shell that carries the effects out; tests drive it with a
/// fake clock and fake bytes.
///
/// One request is at the host at a time (a scan or a timeline call); others wait in order, a
/// wanted scan first. When the host crashes, exits, hangs past a deadline, sends a timeline
/// over `limits.maxTimelineBytes` or breaks the protocol (every byte from the host is hostile:
/// a kind it may not send, an answer to a call not asked, an unreadable report, a library or
/// path it was not given), it is killed, the call at the host gets its fault at once, the
/// waiting calls get `unavailable`, and a new host starts after the policy's backoff; the
/// library blamed gets a strike (``HostSupervisionPolicy``).
///
/// ``handle(_:)`` returns the effects of one event, to be carried out in order, before the
/// next event is handled; ``nextDeadline`` is when to send ``Event/timePassed``.
public struct HostSupervisor {
  /// What the host is doing.
  public enum Phase: String, Sendable {
    /// Started, or asked to scan: loading plugins.
    case loading
    /// Idle or answering calls.
    case ready
    /// Down, waiting for the backoff before a restart.
    case restarting
    /// Stopped for good (the daemon is stopping), or not started yet.
    case stopped
  }

  /// The limits and the scan the supervisor works with, from the config.
  public struct Settings: Equatable, Sendable {
    /// What a scan loads.
    public var registry: PluginRegistry.Configuration
    /// `limits.pluginCallTimeoutMs`, in seconds.
    public var callTimeout: Double
    /// `limits.pluginLoadTimeoutMs`, in seconds: a library's load, and the host's start.
    public var loadTimeout: Double
    /// `limits.maxTimelineBytes`.
    public var maxTimelineBytes: Int
    public var initialBackoff: Double
    public var maximumBackoff: Double
    public var quarantineStrikes: Int

    public init(
      registry: PluginRegistry.Configuration, callTimeout: Double, loadTimeout: Double,
      maxTimelineBytes: Int, initialBackoff: Double, maximumBackoff: Double,
      quarantineStrikes: Int
    ) {
      self.registry = registry
      self.callTimeout = callTimeout
      self.loadTimeout = loadTimeout
      self.maxTimelineBytes = maxTimelineBytes
      self.initialBackoff = initialBackoff
      self.maximumBackoff = maximumBackoff
      self.quarantineStrikes = quarantineStrikes
    }
  }

  /// A timeline call waiting for, or at, the host.
  struct Call {
    let id: UInt32
    let ticket: Ticket
    let animator: String
    let library: String
    let contextJSON: [UInt8]
    let deadline: Double
    /// When the call was sent to the host, and the host's CPU then.
    var sent: (time: Double, cpu: ProcessCPUSample?)?
  }

  /// The host process that runs, as far as the supervisor knows it.
  struct Host {
    let pid: Int32
    var reader: HostMessageReader
    /// The files of the scan at the host, in order (what a `loading` index names).
    var scanFiles: [ScanFiles.File] = []
    /// The daemon's own findings of the scan at the host, put first in its report.
    var scanDiagnostics: [PluginDiagnostic] = []
    /// Every real path a scan of this host listed (a refused data animator file too, which
    /// is listed with its error): the only paths its reports may name.
    var givenPaths: Set<String> = []
  }

  let environment: any HostSupervisorEnvironment
  public internal(set) var settings: Settings
  public internal(set) var phase = Phase.stopped
  /// The animators the host reported last, plus those of quarantined libraries.
  public internal(set) var catalog: [RegisteredAnimator] = []
  var catalogIndex: [String: Int] = [:]
  public internal(set) var policy: HostSupervisionPolicy
  /// Hosts started since the daemon started, the first included.
  public internal(set) var starts = 0
  /// Whether a scan has completed since the daemon started.
  public internal(set) var hasScanned = false

  var host: Host?
  var loadingLibrary: String?
  var scanAtHost = false
  var scanWanted = false
  var stepDeadline: Double?
  var restartAt: Double?
  /// Rescans waiting for the next scan sent to the host, and for the scan at the host.
  var rescansWanted: [Ticket] = []
  var rescansAtHost: [Ticket] = []
  var queue: [Call] = []
  var callAtHost: Call?
  var lastCallID: UInt32 = 0
  /// Set by ``Event/stop``: no host starts again.
  var isStopped = false
  var effects: [Effect] = []

  public init(settings: Settings, environment: any HostSupervisorEnvironment) {
    self.settings = settings
    self.environment = environment
    policy = HostSupervisionPolicy(
      initialBackoff: settings.initialBackoff, maximumBackoff: settings.maximumBackoff,
      quarantineStrikes: settings.quarantineStrikes)
  }
}

@available(*, unavailable) extension HostSupervisor: Sendable {}
