import DaemonSupport
import Glibc
import LibeventLoop
import PluginHost
import PluginLoader
import PluginValues
import TransitionKit
import TransitionServer

/// Starts the plugin host process, talks to it over its socketpair on the daemon's loop, and
/// restarts it when it fails (docs/plugins.md, "Isolation").
///
/// Nothing here blocks: the socket is non-blocking and watched by libevent, every call and
/// every library load has a deadline timer, and the host's exit is seen through its pidfd.
/// One request is at the host at a time (a scan or a timeline call); others wait in order.
/// When the host crashes, exits, hangs past a deadline, sends a timeline over
/// `limits.maxTimelineBytes` or breaks the protocol, it is killed, the call at the host gets
/// its fault at once, the waiting calls get `unavailable`, and a new host starts after the
/// policy's backoff; the library blamed gets a strike (``HostSupervisionPolicy``).
final class PluginHostSupervisor {
  /// A timeline call waiting for, or at, the host.
  private final class Call {
    let id: UInt32
    let animator: String
    let library: String
    let contextJSON: [UInt8]
    var completion: ((PluginTimelineResult) -> Void)?
    var timer: LoopTimer?
    /// When the call was sent to the host, and the host's CPU then.
    var sent: (time: Double, cpu: ProcessCPUSample?)?

    init(
      id: UInt32, animator: String, library: String, contextJSON: [UInt8],
      completion: @escaping (PluginTimelineResult) -> Void
    ) {
      self.id = id
      self.animator = animator
      self.library = library
      self.contextJSON = contextJSON
      self.completion = completion
    }

    /// Answers once; later answers are ignored.
    func finish(_ result: PluginTimelineResult) {
      timer?.cancel()
      timer = nil
      guard let completion else { return }
      self.completion = nil
      completion(result)
    }
  }

  /// One running host process.
  private final class Host {
    let process: HostProcess
    var watcher: DescriptorWatcher?
    var exitWatcher: DescriptorWatcher?
    var reader: HostMessageReader
    var output: [UInt8] = []
    var isOpen = true
    /// The wait status, once the process has been collected.
    var exitStatus: Int32?

    init(process: HostProcess, reader: HostMessageReader) {
      self.process = process
      self.reader = reader
    }
  }

  /// What the host is doing.
  enum Phase: String {
    /// Started, or asked to scan: loading plugins.
    case loading
    /// Idle or answering calls.
    case ready
    /// Down, waiting for the backoff before a restart.
    case restarting
    /// Stopped for good (the daemon is stopping).
    case stopped
  }

  let loop: EventLoop
  let logger: Logger
  private(set) var settings: PluginHostSettings
  private(set) var phase = Phase.stopped
  /// The animators the host reported last, plus those of quarantined libraries.
  private(set) var catalog: [RegisteredAnimator] = []
  private var catalogIndex: [String: Int] = [:]
  private(set) var policy: HostSupervisionPolicy
  /// Hosts started since the daemon started, the first included.
  private(set) var starts = 0
  /// Whether a scan has completed since the daemon started.
  private(set) var hasScanned = false
  /// Runs after every completed scan, with its report.
  var onScanned: ((ScanReport) -> Void)?
  /// Runs when a host fails before any scan completed, with the reason.
  var onFailureBeforeFirstScan: ((String) -> Void)?

  /// Why a rescan was answered without a report: the host went down for a reason no library
  /// is blamed for (it could not start, or it died outside a library's load).
  struct RescanFailure: Error {
    let message: String
  }
  typealias RescanAnswer = (Result<ScanReport, RescanFailure>) -> Void

  private var host: Host?
  /// Exited or killed hosts not reaped yet, by pid.
  private var dying: [Int32: Host] = [:]
  private var loadingLibrary: String?
  private var scanAtHost = false
  private var scanWanted = false
  /// Answers waiting for the next scan sent to the host, and for the scan at the host.
  private var rescansWanted: [RescanAnswer] = []
  private var rescansAtHost: [RescanAnswer] = []
  private var queue: [Call] = []
  private var callAtHost: Call?
  private var lastCallID: UInt32 = 0
  private var stepTimer: LoopTimer?
  private var restartTimer: LoopTimer?

  init(loop: EventLoop, settings: PluginHostSettings, logger: Logger) {
    self.loop = loop
    self.settings = settings
    self.logger = logger
    policy = HostSupervisionPolicy(
      initialBackoff: settings.initialBackoff, maximumBackoff: settings.maximumBackoff,
      quarantineStrikes: settings.quarantineStrikes)
  }

  // MARK: Public surface

  /// The pid of the running host, if any.
  var hostPID: Int32? { host?.process.pid }

  /// The catalogued animator called `name`.
  func animator(named name: String) -> RegisteredAnimator? {
    catalogIndex[name].map { catalog[$0] }
  }

  /// Why the library is quarantined, or nil.
  func quarantineReason(ofLibrary path: String) -> String? { policy.quarantined[path] }

  /// Starts the first host; its scan reports through ``onScanned``.
  func start() {
    scanWanted = true
    startHost()
  }

  /// Puts new settings in force (deadlines and the timeline limit at once, the user and the
  /// rlimits from the next host start), lifts every quarantine and asks the host to scan
  /// again.
  ///
  /// - Parameter answer: Runs once, on the loop, with the report of the first scan sent after
  ///   this call that completes (a library that crashes the host while loading is quarantined
  ///   and the scan is retried without it), or with a ``RescanFailure`` when the host goes down
  ///   for a reason no library is blamed for, or the daemon stops.
  func rescan(with settings: PluginHostSettings, answer: RescanAnswer? = nil) {
    if let answer { rescansWanted.append(answer) }
    self.settings = settings
    host?.reader.payloadLimits[.answer] = settings.maxTimelineBytes
    policy.initialBackoff = settings.initialBackoff
    policy.maximumBackoff = settings.maximumBackoff
    policy.quarantineStrikes = settings.quarantineStrikes
    policy.liftQuarantine()
    scanWanted = true
    if phase == .ready { dispatch() }
  }

  /// Asks the host to scan again with the settings in force, quarantines kept: a data animator
  /// file changed.
  func requestScan() {
    scanWanted = true
    if phase == .ready { dispatch() }
  }

  /// Asks the host for a timeline; `completion` runs exactly once, on the loop, by the call's
  /// deadline at the latest.
  func makeTimeline(
    animator name: String, contextJSON: [UInt8],
    completion: @escaping (PluginTimelineResult) -> Void
  ) {
    guard let animator = animator(named: name) else {
      completion(.failed("no animator named \(name) is loaded"))
      return
    }
    if let reason = policy.quarantined[animator.libraryPath] {
      completion(
        .faulted(
          .quarantined,
          "animator \(name) is quarantined until the next reload: its plugin "
            + "\(animator.libraryPath) brought the plugin host down (\(reason))"))
      return
    }
    guard phase == .ready || phase == .loading else {
      completion(
        .faulted(.unavailable, "the plugin host is \(phase == .stopped ? "stopped" : "restarting")")
      )
      return
    }
    lastCallID = lastCallID &+ 1
    let call = Call(
      id: lastCallID, animator: name, library: animator.libraryPath, contextJSON: contextJSON,
      completion: completion)
    let timer = makeTimer { [weak self, weak call] in
      if let call { self?.callExpired(call) }
    }
    timer?.schedule(after: settings.callTimeout)
    call.timer = timer
    queue.append(call)
    dispatch()
  }

  /// Stops the host for good (the daemon is stopping); waiting calls get `unavailable`.
  func stop() {
    let host = self.host
    phase = .stopped
    restartTimer?.cancel()
    stepTimer?.cancel()
    if let host { discard(host) }
    let calls = takeCalls()
    for call in calls { call.finish(.faulted(.unavailable, "the daemon is stopping")) }
    answerRescans(.failure(RescanFailure(message: "the daemon is stopping")))
  }

  /// Answers every rescan waiting, sent or not.
  private func answerRescans(_ result: Result<ScanReport, RescanFailure>) {
    let answers = rescansAtHost + rescansWanted
    rescansAtHost = []
    rescansWanted = []
    for answer in answers { answer(result) }
  }

  // MARK: Starting

  private func startHost() {
    guard phase != .stopped || starts == 0 else { return }
    starts += 1
    let arguments = HostCommandLine.arguments(for: settings.sandbox(parent: getpid()))
    let process: HostProcess
    do {
      process = try HostProcess.spawn(
        executable: settings.executable, arguments: arguments,
        environment: PluginHostSettings.hostEnvironment())
    } catch {
      logger.error("cannot start the plugin host: \(error)")
      failedToStart(reason: "\(error)")
      return
    }
    let host = Host(
      process: process,
      reader: HostMessageReader(payloadLimits: [
        .loading: 4096, .scanned: 4 << 20, .answer: settings.maxTimelineBytes,
      ]))
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
      failedToStart(reason: "\(error)")
      return
    }
    host.watcher?.watchReadable(true)
    host.exitWatcher?.watchReadable(true)
    self.host = host
    phase = .loading
    logger.info(
      "plugin host started (pid \(process.pid)"
        + (settings.user.map { ", as \($0.name) uid \($0.uid)" } ?? "") + ")")
    scanWanted = true
    dispatch()
  }

  private func failedToStart(reason: String) {
    let wait = policy.hostFailed(blaming: nil, whileLoading: false, reason: reason).restartAfter
    phase = .restarting
    if !hasScanned { onFailureBeforeFirstScan?(reason) }
    answerRescans(.failure(RescanFailure(message: "the plugin host could not start: \(reason)")))
    scheduleRestart(after: wait)
  }

  private func scheduleRestart(after seconds: Double) {
    guard phase != .stopped else { return }
    if restartTimer == nil {
      restartTimer = makeTimer { [weak self] in self?.startHost() }
    }
    restartTimer?.schedule(after: seconds)
  }

  // MARK: Requests

  /// Sends the next request when the host is free: a wanted scan first, then the oldest call.
  private func dispatch() {
    guard let host, host.isOpen, !scanAtHost, callAtHost == nil else { return }
    if scanWanted {
      scanWanted = false
      scanAtHost = true
      phase = .loading
      loadingLibrary = nil
      rescansAtHost += rescansWanted
      rescansWanted = []
      let request = ScanRequest(
        configuration: settings.registry, skip: policy.quarantined.keys.sorted())
      armStep(settings.loadTimeout)
      send(HostMessage(.scan, payload: request.payload), to: host)
      return
    }
    guard !queue.isEmpty else { return }
    let call = queue.removeFirst()
    callAtHost = call
    call.sent = (loop.now, ProcessCPUSample.read(pid: host.process.pid))
    send(
      HostMessage(
        .timeline, call: call.id,
        payload: TimelineCall(animator: call.animator, contextJSON: call.contextJSON).payload),
      to: host)
  }

  private func send(_ message: HostMessage, to host: Host) {
    host.output.append(contentsOf: message.encoded)
    flush(host)
  }

  private func flush(_ host: Host) {
    while host.isOpen && !host.output.isEmpty {
      let count = host.output.withUnsafeBytes {
        write(host.process.descriptor, $0.baseAddress, $0.count)
      }
      if count > 0 {
        host.output.removeFirst(count)
      } else if count < 0 && errno == EINTR {
        continue
      } else if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        host.watcher?.watchWritable(true)
        return
      } else {
        fault(host, .crashed, "the plugin host closed its socket")
        return
      }
    }
    host.watcher?.watchWritable(false)
  }

  // MARK: Reading

  private func readable(_ host: Host) {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    // At most 1 MiB a wake-up, so that a flood from the host shares the loop.
    for _ in 0..<16 where host.isOpen {
      let count = read(host.process.descriptor, &buffer, buffer.count)
      if count == 0 {
        // The host's end closed: it died, or is dying. Name how when it is already gone;
        // otherwise its pidfd reports the exit in a moment (`exited`), and the call's
        // deadline still holds if it never exits.
        if let status = collectExit(host) {
          fault(host, .crashed, endMessage(of: host, status: status))
        } else if host.exitWatcher != nil {
          host.watcher?.cancel()
          host.watcher = nil
        } else {
          fault(host, .crashed, endMessage(of: host, status: nil))
        }
        return
      }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK { return }
        fault(
          host, .crashed, "the plugin host's socket failed: \(String(cString: strerror(errno)))")
        return
      }
      host.reader.append(buffer[..<count])
      do {
        while host.isOpen, let message = try host.reader.next() {
          receive(message, from: host)
        }
      } catch .tooLarge(let kind, let length, let limit) {
        if kind == HostMessage.Kind.answer.rawValue {
          fault(
            host, .oversized,
            "animator \(callAtHost?.animator ?? "?") returned a timeline of \(length) bytes, "
              + "more than the limit of \(limit) (limits.maxTimelineBytes)")
        } else {
          fault(host, .protocolViolation, "the plugin host sent a message of \(length) bytes")
        }
        return
      } catch {
        fault(host, .protocolViolation, "the plugin host broke the protocol: \(error)")
        return
      }
    }
  }

  private func receive(_ message: HostMessage, from host: Host) {
    switch message.kind {
    case .loading where scanAtHost:
      loadingLibrary = String(decoding: message.payload, as: UTF8.self)
      armStep(settings.loadTimeout)
    case .scanned where scanAtHost:
      let report: ScanReport
      do {
        report = try ScanReport(payload: message.payload)
      } catch {
        fault(host, .protocolViolation, "the plugin host sent an unreadable report: \(error)")
        return
      }
      scanAtHost = false
      loadingLibrary = nil
      stepTimer?.cancel()
      policy.hostWorked()
      phase = .ready
      updateCatalog(report.animators)
      hasScanned = true
      onScanned?(report)
      let answers = rescansAtHost
      rescansAtHost = []
      for answer in answers { answer(.success(report)) }
      dispatch()
    case .answer where callAtHost?.id == message.call:
      guard let call = callAtHost, let result = Self.result(of: message, animator: call.animator)
      else {
        fault(host, .protocolViolation, "the plugin host sent an answer of unknown status")
        return
      }
      callAtHost = nil
      policy.hostWorked()
      call.finish(result)
      dispatch()
    default:
      fault(
        host, .protocolViolation,
        "the plugin host sent an unexpected \(message.kind) message (call \(message.call))")
    }
  }

  /// The result an answer message carries; nil for an unknown status.
  static func result(of message: HostMessage, animator: String) -> PluginTimelineResult? {
    switch HostMessage.Status(rawValue: message.status) {
    case .timeline?:
      guard !message.payload.isEmpty else {
        return .failed("animator \(animator) reported success but returned no timeline")
      }
      return .timeline(message.payload)
    case .declined?: return .declined
    case .failed?:
      let message = String(decoding: message.payload.prefix(4096), as: UTF8.self)
      return .failed(String(message.prefix(1000)))
    case nil: return nil
    }
  }

  private func updateCatalog(_ reported: [RegisteredAnimator]) {
    var animators = reported
    var names = Set(reported.map(\.name))
    for old in catalog where policy.quarantined[old.libraryPath] != nil {
      if names.insert(old.name).inserted { animators.append(old) }
    }
    catalog = animators
    catalogIndex = Dictionary(
      animators.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
  }

  // MARK: Deadlines

  private func armStep(_ seconds: Double) {
    if stepTimer == nil {
      stepTimer = makeTimer { [weak self] in self?.stepExpired() }
    }
    stepTimer?.schedule(after: seconds)
  }

  private func stepExpired() {
    guard let host, scanAtHost else { return }
    let milliseconds = Int(settings.loadTimeout * 1000)
    let what =
      loadingLibrary.map { "opening \($0) took more than \(milliseconds) ms" }
      ?? "the plugin host did not start within \(milliseconds) ms"
    fault(host, .timeout, what + " (limits.pluginLoadTimeoutMs)")
  }

  private func callExpired(_ call: Call) {
    let milliseconds = Int(settings.callTimeout * 1000)
    if callAtHost === call, let host {
      var starved = false
      if let sent = call.sent, let start = sent.cpu,
        let end = ProcessCPUSample.read(pid: host.process.pid)
      {
        starved = end.wasStarved(since: start, elapsed: loop.now - sent.time)
      }
      fault(
        host, .timeout,
        "animator \(call.animator) did not answer within \(milliseconds) ms "
          + "(limits.pluginCallTimeoutMs)"
          + (starved ? ", the plugin host waiting for a CPU (the machine is overloaded)" : ""),
        blameless: starved)
      return
    }
    guard let index = queue.firstIndex(where: { $0 === call }) else { return }
    queue.remove(at: index)
    call.finish(
      .faulted(
        .timeout,
        "animator \(call.animator) was not called within \(milliseconds) ms: the plugin host "
          + "was busy (limits.pluginCallTimeoutMs)"))
  }

  // MARK: Failure

  /// Kills `host`, answers every call, blames the library at fault and schedules a restart.
  /// - Parameter blameless: the fault is the machine's (a call starved of CPU), not the
  ///   plugin's: no strike.
  private func fault(
    _ host: Host, _ kind: PluginCallFault, _ message: String, blameless: Bool = false
  ) {
    guard host === self.host, host.isOpen else { return }
    let blamed: String?
    let whileLoading: Bool
    if blameless {
      blamed = nil
      whileLoading = false
    } else if scanAtHost {
      blamed = loadingLibrary
      whileLoading = loadingLibrary != nil
    } else {
      blamed = callAtHost?.library
      whileLoading = false
    }
    let failedCall = callAtHost
    let waiting = takeCalls()
    let wasScanning = scanAtHost
    scanAtHost = false
    loadingLibrary = nil
    stepTimer?.cancel()
    discard(host)
    let reason =
      whileLoading ? "crashed or hung the plugin host while loading (\(message))" : message
    let (wait, quarantinedNow) = policy.hostFailed(
      blaming: blamed, whileLoading: whileLoading, reason: reason)
    logger.warn(
      "plugin host (pid \(host.process.pid)) killed: \(message); restarting in "
        + "\(Int(wait * 1000)) ms")
    if quarantinedNow, let blamed {
      let strikes = policy.strikes[blamed] ?? 0
      logger.error(
        "plugin \(blamed) quarantined after \(strikes) fault\(strikes == 1 ? "" : "s"): "
          + "\(reason); its animators fall back to \(PluginRegistry.fallbackAnimatorName) "
          + "until the next reload")
    }
    phase = .restarting
    if wasScanning && !hasScanned && blamed == nil { onFailureBeforeFirstScan?(message) }
    if wasScanning && blamed == nil {
      answerRescans(.failure(RescanFailure(message: message)))
    } else if wasScanning {
      // The retry skips the library now quarantined: it answers these.
      rescansWanted = rescansAtHost + rescansWanted
      rescansAtHost = []
    }
    scanWanted = true
    scheduleRestart(after: wait)
    failedCall?.finish(.faulted(kind, message))
    for call in waiting where call !== failedCall {
      call.finish(.faulted(.unavailable, "the plugin host went down (\(message))"))
    }
  }

  /// Every call waiting or at the host, removed from both.
  private func takeCalls() -> [Call] {
    var calls = queue
    if let callAtHost { calls.insert(callAtHost, at: 0) }
    queue = []
    callAtHost = nil
    return calls
  }

  /// Closes the host's socket and kills it; it is reaped when its pidfd says it exited.
  private func discard(_ host: Host) {
    guard host.isOpen else { return }
    host.isOpen = false
    host.watcher?.cancel()
    host.watcher = nil
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
    if host.isOpen {
      fault(host, .crashed, endMessage(of: host, status: status))
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

  /// How the host ended, naming the signal and the animator whose call it took down: "the
  /// plugin host was killed by SIGSEGV (Segmentation fault) during a call to animator X".
  private func endMessage(of host: Host, status: Int32?) -> String {
    var message =
      "the plugin host " + (status.map { HostProcess.describe(waitStatus: $0) } ?? "exited")
    if let call = callAtHost { message += " during a call to animator \(call.animator)" }
    return message
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

  private func makeTimer(_ fire: @escaping () -> Void) -> LoopTimer? {
    do {
      return try LoopTimer(loop: loop, fire)
    } catch {
      logger.error("cannot create a timer: \(error)")
      return nil
    }
  }
}

@available(*, unavailable) extension PluginHostSupervisor: Sendable {}
