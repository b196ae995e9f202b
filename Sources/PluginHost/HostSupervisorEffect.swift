import PluginLoader
import PluginValues

extension HostSupervisor {
  /// A number the shell picks to match an answer to the one who asked.
  public typealias Ticket = UInt64

  /// Why a rescan was answered without a report: the host went down for a reason no library
  /// is blamed for (it could not start, or it died outside a library's load), or the daemon
  /// stopped.
  public struct RescanFailure: Error, Equatable, Sendable {
    public let message: String
    public init(message: String) { self.message = message }
  }

  /// How much a log line matters.
  public enum LogLevel: Equatable, Sendable {
    case debug, info, warn, error
  }

  /// What happened, for the supervisor to decide on.
  public enum Event: Equatable, Sendable {
    /// Start the first host.
    case start
    /// The shell started the host it was asked for (``Effect/startHost``).
    case hostStarted(pid: Int32)
    /// The shell could not start or watch a host; the shell has logged why.
    case hostFailedToStart(String)
    /// Bytes the current host wrote.
    case received([UInt8])
    /// The host's socket failed (a write or read error); the message says how.
    case channelFailed(String)
    /// The current host's end of the socket closed, or the process ended; its wait status
    /// when it has been collected.
    case hostEnded(waitStatus: Int32?)
    /// The clock reached ``HostSupervisor/nextDeadline``, or later.
    case timePassed
    /// Asks for a timeline; answered exactly once with ``Effect/answer(_:_:)``, by the call's
    /// deadline at the latest.
    case makeTimeline(Ticket, animator: String, contextJSON: [UInt8])
    /// New settings (deadlines and the timeline limit at once), every quarantine lifted, and
    /// a scan; answered with ``Effect/answerRescan(_:_:)`` when the ticket is given.
    case rescan(Settings, answer: Ticket?)
    /// A scan with the settings in force, quarantines kept (a data animator file changed).
    case requestScan
    /// Stop for good (the daemon is stopping).
    case stop
  }

  /// What the shell must do, in order.
  public enum Effect: Equatable, Sendable {
    /// Start a host process; report ``Event/hostStarted(pid:)`` or
    /// ``Event/hostFailedToStart(_:)``.
    case startHost
    /// Write these bytes to the current host, after everything sent before; with a descriptor
    /// passed on their first byte (`SCM_RIGHTS`), which the shell closes once it is sent or
    /// the host is gone.
    case send([UInt8], passing: Int32?)
    /// Kill the current host and close its socket; reap it when it exits.
    case killHost
    /// The answer to the timeline call of this ticket.
    case answer(Ticket, PluginTimelineResult)
    /// The answer to the rescan of this ticket.
    case answerRescan(Ticket, Result<ScanReport, RescanFailure>)
    /// A line for the daemon's log.
    case log(LogLevel, String)
    /// A scan completed: its report, the daemon's own findings first.
    case scanned(ScanReport)
    /// A host failed before any scan completed, with the reason.
    case failedBeforeFirstScan(String)
  }
}
