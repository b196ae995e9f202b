import CProcessControl
import DaemonSupport
import Glibc
import LibeventLoop
import PluginHost
import PluginLoader
import PluginValues
import TransitionKit
import TransitionServer

/// The shell around ``HostSupervisor``, one plugin host's supervisor (docs/plugins.md,
/// "Isolation"; ``PluginHostPool`` keeps one per library): the process, its descriptors, the
/// libevent watchers and the one deadline timer. Every decision is the state machine's; this carries out its effects in order.
///
/// Nothing here blocks: the socket is non-blocking and watched by libevent, the state
/// machine's next deadline is one timer, and the host's exit is seen through its pidfd.
/// Effects that an effect causes (an answer whose completion asks for another timeline) run
/// after the ones already decided, so the bytes to the host leave in the order decided.
final class PluginHostSupervisor {
  /// One running host process.
  private final class Host {
    let process: HostProcess
    var watcher: DescriptorWatcher?
    var exitWatcher: DescriptorWatcher?
    /// Bytes not written yet, each chunk with the descriptor passed on its first byte (-1 for
    /// none).
    var output: [(bytes: [UInt8], descriptor: Int32)] = []
    var isOpen = true
    /// The wait status, once the process has been collected.
    var exitStatus: Int32?

    init(process: HostProcess) {
      self.process = process
    }
  }

  typealias RescanFailure = HostSupervisor.RescanFailure
  typealias RescanAnswer = (Result<ScanReport, RescanFailure>) -> Void

  let loop: EventLoop
  let logger: Logger
  /// What the host serves, for the log: a library's real path, or `data animators`.
  let label: String
  private(set) var settings: PluginHostSettings
  /// Where the host's bytes are read into, made once (a read comes with every answer).
  private var readBuffer = [UInt8](repeating: 0, count: 64 * 1024)
  private var machine: HostSupervisor
  /// Runs after every completed scan, with its report.
  var onScanned: ((ScanReport) -> Void)?
  /// Runs when a host fails before any scan completed, with the reason.
  var onFailureBeforeFirstScan: ((String) -> Void)?

  private var host: Host?
  /// Exited or killed hosts not reaped yet, by pid.
  private var dying: [Int32: Host] = [:]
  private var lastTicket: HostSupervisor.Ticket = 0
  private var completions: [HostSupervisor.Ticket: (PluginTimelineResult) -> Void] = [:]
  private var rescanAnswers: [HostSupervisor.Ticket: RescanAnswer] = [:]
  private var deadlineTimer: LoopTimer?
  /// Events whose effects wait for the effects being carried out.
  private var pending: [HostSupervisor.Effect] = []
  private var isPerforming = false

  /// - Parameters:
  ///   - settings: the host's settings; `settings.supervision.registry.selection` is its share
  ///     of the files.
  ///   - label: what the host serves, for the log.
  init(loop: EventLoop, settings: PluginHostSettings, label: String, logger: Logger) {
    self.loop = loop
    self.settings = settings
    self.label = label
    self.logger = logger
    machine = HostSupervisor(
      settings: settings.supervision,
      environment: SystemSupervisorEnvironment(clock: { [unowned loop] in loop.now }))
  }

  // MARK: Public surface

  /// What the host is doing.
  var phase: HostSupervisor.Phase { machine.phase }
  /// The animators the host reported last, plus those of quarantined libraries.
  var catalog: [RegisteredAnimator] { machine.catalog }
  var policy: HostSupervisionPolicy { machine.policy }
  /// Hosts started since the daemon started, the first included.
  var starts: Int { machine.starts }
  /// Whether a scan has completed since the daemon started.
  var hasScanned: Bool { machine.hasScanned }
  /// The pid of the running host, if any.
  var hostPID: Int32? { machine.hostPID }
  /// Whether no host of this supervisor runs or waits to be reaped: a stopped supervisor may
  /// then go.
  var isIdle: Bool { host == nil && dying.isEmpty }

  /// The catalogued animator called `name`.
  func animator(named name: String) -> RegisteredAnimator? { machine.animator(named: name) }

  /// Why the library is quarantined, or nil.
  func quarantineReason(ofLibrary path: String) -> String? {
    machine.quarantineReason(ofLibrary: path)
  }

  /// Starts the first host; its scan reports through ``onScanned``.
  func start() { handle(.start) }

  /// Puts new settings in force (deadlines and the timeline limit at once, the user and the
  /// rlimits from the next host start), lifts every quarantine and asks the host to scan
  /// again.
  ///
  /// - Parameter answer: Runs once, on the loop, with the report of the first scan sent after
  ///   this call that completes (a library that crashes the host while loading is quarantined
  ///   and the scan is retried without it), or with a ``RescanFailure`` when the host goes down
  ///   for a reason no library is blamed for, or the daemon stops.
  func rescan(with settings: PluginHostSettings, answer: RescanAnswer? = nil) {
    self.settings = settings
    var ticket: HostSupervisor.Ticket?
    if let answer {
      let next = nextTicket()
      rescanAnswers[next] = answer
      ticket = next
    }
    handle(.rescan(settings.supervision, answer: ticket))
  }

  /// Asks the host to scan again with the settings in force, quarantines kept: a data animator
  /// file changed.
  func requestScan() { handle(.requestScan) }

  /// Asks the host for a timeline; `completion` runs exactly once, on the loop, by the call's
  /// deadline at the latest.
  func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    let ticket = nextTicket()
    completions[ticket] = completion
    handle(.makeTimeline(ticket, animator: name, contextJSON: contextJSON))
  }

  /// Stops the host for good (the daemon is stopping); waiting calls get `unavailable`.
  func stop() {
    handle(.stop)
    deadlineTimer?.cancel()
  }

  private func nextTicket() -> HostSupervisor.Ticket {
    lastTicket += 1
    return lastTicket
  }

  // MARK: Carrying out effects

  /// Hands one event to the state machine and carries out its effects, then re-arms the
  /// deadline timer.
  private func handle(_ event: HostSupervisor.Event) {
    pending += machine.handle(event)
    guard !isPerforming else { return }
    isPerforming = true
    while !pending.isEmpty {
      perform(pending.removeFirst())
    }
    isPerforming = false
    armDeadline()
  }

  private func perform(_ effect: HostSupervisor.Effect) {
    switch effect {
    case .startHost:
      startHost()
    case .send(let bytes, let descriptor):
      guard let host, host.isOpen else {
        if let descriptor { close(descriptor) }
        return
      }
      host.output.append((bytes, descriptor ?? -1))
      flush(host)
    case .killHost:
      if let host { discard(host) }
    case .answer(let ticket, let result):
      completions.removeValue(forKey: ticket)?(result)
    case .answerRescan(let ticket, let result):
      rescanAnswers.removeValue(forKey: ticket)?(result)
    case .log(let level, let message):
      switch level {
      case .debug: logger.debug(message)
      case .info: logger.info(message)
      case .warn: logger.warn(message)
      case .error: logger.error(message)
      }
    case .scanned(let report):
      onScanned?(report)
    case .failedBeforeFirstScan(let reason):
      onFailureBeforeFirstScan?(reason)
    }
  }

  private func armDeadline() {
    guard let deadline = machine.nextDeadline else {
      deadlineTimer?.cancel()
      return
    }
    if deadlineTimer == nil {
      do {
        deadlineTimer = try LoopTimer(loop: loop) { [weak self] in self?.handle(.timePassed) }
      } catch {
        logger.error("cannot create a timer: \(error)")
        return
      }
    }
    deadlineTimer?.schedule(after: max(0, deadline - loop.now))
  }

  // MARK: The process

  private func startHost() {
    let arguments = HostCommandLine.arguments(for: settings.sandbox(parent: getpid()))
    let process: HostProcess
    do {
      process = try HostProcess.spawn(
        executable: settings.executable, arguments: arguments,
        environment: PluginHostSettings.hostEnvironment())
    } catch {
      logger.error("cannot start the plugin host: \(error)")
      handle(.hostFailedToStart("\(error)"))
      return
    }
    let host = Host(process: process)
    do {
      host.watcher = try DescriptorWatcher(
        loop: loop, descriptor: process.descriptor,
        onReadable: { [weak self, unowned host] in self?.readable(host) },
        onWritable: { [weak self, unowned host] in self?.flush(host) })
      if process.exitDescriptor >= 0 {
        host.exitWatcher = try DescriptorWatcher(
          loop: loop, descriptor: process.exitDescriptor,
          onReadable: { [weak self, unowned host] in self?.exited(host) })
      }
    } catch {
      logger.error("cannot watch the plugin host: \(error)")
      kill(process.pid, SIGKILL)
      self.host = host
      discard(host)
      handle(.hostFailedToStart("\(error)"))
      return
    }
    host.watcher?.watchReadable(true)
    host.exitWatcher?.watchReadable(true)
    self.host = host
    logger.info(
      "plugin host started for \(label) (pid \(process.pid)"
        + (settings.user.map { ", as \($0.name) uid \($0.uid)" } ?? "") + ")")
    handle(.hostStarted(pid: process.pid))
  }

  /// Writes what the host's socket takes now; the rest waits for it to be writable. A chunk
  /// with a descriptor goes with `sendmsg`, and the descriptor is closed once it is sent.
  private func flush(_ host: Host) {
    while host.isOpen, let chunk = host.output.first {
      let count = chunk.bytes.withUnsafeBytes { bytes in
        chunk.descriptor >= 0
          ? process_control_send_with_descriptor(
            host.process.descriptor, bytes.baseAddress, bytes.count, chunk.descriptor)
          : send(host.process.descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
      }
      if count > 0 {
        if chunk.descriptor >= 0 { close(chunk.descriptor) }
        if count == chunk.bytes.count {
          host.output.removeFirst()
        } else {
          host.output[0] = (Array(chunk.bytes[count...]), -1)
        }
      } else if count < 0 && errno == EINTR {
        continue
      } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        host.watcher?.watchWritable(true)
        return
      } else {
        guard host === self.host else { return }
        handle(.channelFailed("the plugin host closed its socket"))
        return
      }
    }
    host.watcher?.watchWritable(false)
  }

  /// Reads what the host wrote, at most 1 MiB a wake-up, so that a flood from the host shares
  /// the loop. A plain `read`: descriptors the host may try to pass are never taken (the
  /// kernel drops them).
  private func readable(_ host: Host) {
    for _ in 0..<16 where host.isOpen && host === self.host {
      let descriptor = host.process.descriptor
      let count = readBuffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count == 0 {
        // The host's end closed: it died, or is dying. Name how when it is already gone;
        // otherwise its pidfd reports the exit in a moment (`exited`), and the call's
        // deadline still holds if it never exits.
        if let status = collectExit(host) {
          handle(.hostEnded(waitStatus: status))
        } else if host.exitWatcher != nil {
          host.watcher?.cancel()
          host.watcher = nil
        } else {
          handle(.hostEnded(waitStatus: nil))
        }
        return
      }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK { return }
        handle(
          .channelFailed(
            "the plugin host's socket failed: \(String(cString: strerror(errno)))"))
        return
      }
      handle(.received(Array(readBuffer[..<count])))
    }
  }

  /// Closes the host's socket and kills it; it is reaped when its pidfd says it exited.
  private func discard(_ host: Host) {
    guard host.isOpen else { return }
    host.isOpen = false
    host.watcher?.cancel()
    host.watcher = nil
    for chunk in host.output where chunk.descriptor >= 0 { close(chunk.descriptor) }
    host.output = []
    kill(host.process.pid, SIGKILL)
    close(host.process.descriptor)
    if self.host === host { self.host = nil }
    if host.exitWatcher != nil {
      dying[host.process.pid] = host
    } else {
      reap(host, blocking: true)
    }
  }

  private func exited(_ host: Host) {
    let status = collectExit(host)
    if host.isOpen && host === self.host {
      handle(.hostEnded(waitStatus: status))
    }
    reap(host, blocking: false)
  }

  /// The host's wait status when it has exited (collected once, without blocking); nil while
  /// it runs.
  private func collectExit(_ host: Host) -> Int32? {
    if let status = host.exitStatus { return status }
    var status: Int32 = 0
    guard waitpid(host.process.pid, &status, WNOHANG) == host.process.pid else { return nil }
    host.exitStatus = status
    return status
  }

  /// Collects the exit status of a host that is gone and logs how it ended.
  private func reap(_ host: Host, blocking: Bool) {
    if host.exitStatus == nil {
      var status: Int32 = 0
      let result = waitpid(host.process.pid, &status, blocking ? 0 : WNOHANG)
      guard result == host.process.pid || blocking else { return }
      if result == host.process.pid { host.exitStatus = status }
    }
    host.exitWatcher?.cancel()
    host.exitWatcher = nil
    if host.process.exitDescriptor >= 0 { close(host.process.exitDescriptor) }
    dying[host.process.pid] = nil
    if let status = host.exitStatus {
      logger.info(
        "plugin host (pid \(host.process.pid)) \(HostProcess.describe(waitStatus: status))")
    }
  }
}

@available(*, unavailable) extension PluginHostSupervisor: Sendable {}
