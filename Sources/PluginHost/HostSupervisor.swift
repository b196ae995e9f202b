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
  private struct Call {
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
  private struct Host {
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

  private let environment: any HostSupervisorEnvironment
  public private(set) var settings: Settings
  public private(set) var phase = Phase.stopped
  /// The animators the host reported last, plus those of quarantined libraries.
  public private(set) var catalog: [RegisteredAnimator] = []
  private var catalogIndex: [String: Int] = [:]
  public private(set) var policy: HostSupervisionPolicy
  /// Hosts started since the daemon started, the first included.
  public private(set) var starts = 0
  /// Whether a scan has completed since the daemon started.
  public private(set) var hasScanned = false

  private var host: Host?
  private var loadingLibrary: String?
  private var scanAtHost = false
  private var scanWanted = false
  private var stepDeadline: Double?
  private var restartAt: Double?
  /// Rescans waiting for the next scan sent to the host, and for the scan at the host.
  private var rescansWanted: [Ticket] = []
  private var rescansAtHost: [Ticket] = []
  private var queue: [Call] = []
  private var callAtHost: Call?
  private var lastCallID: UInt32 = 0
  /// Set by ``Event/stop``: no host starts again.
  private var isStopped = false
  private var effects: [Effect] = []

  public init(settings: Settings, environment: any HostSupervisorEnvironment) {
    self.settings = settings
    self.environment = environment
    policy = HostSupervisionPolicy(
      initialBackoff: settings.initialBackoff, maximumBackoff: settings.maximumBackoff,
      quarantineStrikes: settings.quarantineStrikes)
  }

  // MARK: Reading

  /// The pid of the running host, if any.
  public var hostPID: Int32? { host?.pid }

  /// The catalogued animator called `name`.
  public func animator(named name: String) -> RegisteredAnimator? {
    catalogIndex[name].map { catalog[$0] }
  }

  /// Why the library is quarantined, or nil.
  public func quarantineReason(ofLibrary path: String) -> String? { policy.quarantined[path] }

  /// When the shell must send ``Event/timePassed``: the earliest deadline of a call, of a load
  /// step, or of a restart; nil when nothing waits on the clock.
  public var nextDeadline: Double? {
    var deadlines = queue.map(\.deadline)
    if let call = callAtHost { deadlines.append(call.deadline) }
    if scanAtHost, let stepDeadline { deadlines.append(stepDeadline) }
    if let restartAt { deadlines.append(restartAt) }
    return deadlines.min()
  }

  // MARK: Events

  /// Decides on one event.
  /// - Returns: the effects, in the order the shell must carry them out.
  public mutating func handle(_ event: Event) -> [Effect] {
    effects = []
    switch event {
    case .start:
      scanWanted = true
      startHost()
    case .hostStarted(let pid):
      hostStarted(pid: pid)
    case .hostFailedToStart(let reason):
      failedToStart(reason: reason)
    case .received(let bytes):
      received(bytes)
    case .channelFailed(let message):
      fault(.crashed, message)
    case .hostEnded(let status):
      if host != nil { fault(.crashed, endMessage(status: status)) }
    case .timePassed:
      timePassed()
    case .makeTimeline(let ticket, let animator, let contextJSON):
      makeTimeline(ticket, animator: animator, contextJSON: contextJSON)
    case .rescan(let settings, let answer):
      rescan(with: settings, answer: answer)
    case .requestScan:
      scanWanted = true
      if phase == .ready { dispatch() }
    case .stop:
      stop()
    }
    let done = effects
    effects = []
    return done
  }

  // MARK: Starting

  private mutating func startHost() {
    guard !isStopped else { return }
    starts += 1
    effects.append(.startHost)
  }

  private mutating func hostStarted(pid: Int32) {
    guard !isStopped else {
      effects.append(.killHost)
      return
    }
    host = Host(
      pid: pid,
      reader: HostMessageReader(
        payloadLimits: HostMessageReader.fromHost(maxTimelineBytes: settings.maxTimelineBytes)))
    phase = .loading
    scanWanted = true
    dispatch()
  }

  private mutating func failedToStart(reason: String) {
    let wait = policy.hostFailed(blaming: nil, whileLoading: false, reason: reason).restartAfter
    phase = .restarting
    if !hasScanned { effects.append(.failedBeforeFirstScan(reason)) }
    answerRescans(.failure(RescanFailure(message: "the plugin host could not start: \(reason)")))
    scheduleRestart(after: wait)
  }

  private mutating func scheduleRestart(after seconds: Double) {
    guard !isStopped else { return }
    restartAt = environment.now + seconds
  }

  // MARK: Requests

  private mutating func makeTimeline(_ ticket: Ticket, animator name: String, contextJSON: [UInt8])
  {
    guard let animator = animator(named: name) else {
      effects.append(.answer(ticket, .failed("no animator named \(name) is loaded")))
      return
    }
    if let reason = policy.quarantined[animator.libraryPath] {
      effects.append(
        .answer(
          ticket,
          .faulted(
            .quarantined,
            "animator \(name) is quarantined until the next reload: its plugin "
              + "\(animator.libraryPath) brought the plugin host down (\(reason))")))
      return
    }
    guard phase == .ready || phase == .loading else {
      let state = phase == .stopped ? "stopped" : "restarting"
      effects.append(.answer(ticket, .faulted(.unavailable, "the plugin host is \(state)")))
      return
    }
    lastCallID = lastCallID &+ 1
    queue.append(
      Call(
        id: lastCallID, ticket: ticket, animator: name, library: animator.libraryPath,
        contextJSON: contextJSON, deadline: environment.now + settings.callTimeout))
    dispatch()
  }

  private mutating func rescan(with settings: Settings, answer: Ticket?) {
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

  private mutating func stop() {
    isStopped = true
    phase = .stopped
    restartAt = nil
    stepDeadline = nil
    scanAtHost = false
    if host != nil { discardHost() }
    for call in takeCalls() {
      effects.append(.answer(call.ticket, .faulted(.unavailable, "the daemon is stopping")))
    }
    answerRescans(.failure(RescanFailure(message: "the daemon is stopping")))
  }

  /// Answers every rescan waiting, sent or not.
  private mutating func answerRescans(_ result: Result<ScanReport, RescanFailure>) {
    let answers = rescansAtHost + rescansWanted
    rescansAtHost = []
    rescansWanted = []
    for answer in answers { effects.append(.answerRescan(answer, result)) }
  }

  /// Sends the next request when the host is free: a wanted scan first, then the oldest call.
  private mutating func dispatch() {
    guard var host, !scanAtHost, callAtHost == nil else { return }
    if scanWanted {
      scanWanted = false
      scanAtHost = true
      phase = .loading
      loadingLibrary = nil
      rescansAtHost += rescansWanted
      rescansWanted = []
      let scan = environment.scanFiles(
        settings.registry, skipping: Set(policy.quarantined.keys))
      host.scanFiles = scan.files
      host.scanDiagnostics = scan.diagnostics
      host.givenPaths.formUnion(scan.files.map(\.path))
      self.host = host
      stepDeadline = environment.now + settings.loadTimeout
      for descriptor in scan.descriptors {
        effects.append(.send(HostMessage(.file).encoded, passing: descriptor))
      }
      effects.append(
        .send(
          HostMessage(.scan, payload: ScanRequest(files: scan.files).payload).encoded,
          passing: nil))
      return
    }
    guard !queue.isEmpty else { return }
    var call = queue.removeFirst()
    call.sent = (environment.now, environment.cpuSample(pid: host.pid))
    callAtHost = call
    effects.append(
      .send(
        HostMessage(
          .timeline, call: call.id,
          payload: TimelineCall(animator: call.animator, contextJSON: call.contextJSON).payload
        ).encoded, passing: nil))
  }

  // MARK: Reading the host

  private mutating func received(_ bytes: [UInt8]) {
    guard host != nil else { return }
    host?.reader.append(bytes)
    do {
      while host != nil, let message = try host?.reader.next() {
        receive(message)
      }
    } catch .tooLarge(let kind, let length, let limit) {
      if kind == HostMessage.Kind.answer.rawValue {
        fault(
          .oversized,
          "animator \(callAtHost?.animator ?? "?") returned a timeline of \(length) bytes, "
            + "more than the limit of \(limit) (limits.maxTimelineBytes)")
      } else {
        fault(.protocolViolation, "the plugin host sent a message of \(length) bytes")
      }
    } catch {
      fault(.protocolViolation, "the plugin host broke the protocol: \(error)")
    }
  }

  private mutating func receive(_ message: HostMessage) {
    switch message.kind {
    case .loading where scanAtHost:
      guard message.payload.count == 4, let files = host?.scanFiles,
        case let index = Int(HostMessage.uint32(message.payload)), index < files.count,
        files[index].kind == .library, files[index].descriptor >= 0
      else {
        fault(.protocolViolation, "the plugin host announced a library it was not given")
        return
      }
      loadingLibrary = files[index].path
      stepDeadline = environment.now + settings.loadTimeout
    case .scanned where scanAtHost:
      var report: ScanReport
      do {
        report = try ScanReport(payload: message.payload)
      } catch {
        fault(.protocolViolation, "the plugin host sent an unreadable report: \(error)")
        return
      }
      let given = host?.givenPaths ?? []
      if let stranger = report.animators.first(where: { !given.contains($0.libraryPath) }) {
        fault(
          .protocolViolation,
          "the plugin host reported animator \(stranger.name) from a file it was not given")
        return
      }
      report.diagnostics = (host?.scanDiagnostics ?? []) + report.diagnostics
      scanAtHost = false
      loadingLibrary = nil
      stepDeadline = nil
      policy.hostWorked()
      phase = .ready
      updateCatalog(report.animators)
      hasScanned = true
      effects.append(.scanned(report))
      let answers = rescansAtHost
      rescansAtHost = []
      for answer in answers { effects.append(.answerRescan(answer, .success(report))) }
      dispatch()
    case .answer where callAtHost?.id == message.call:
      guard let call = callAtHost, let result = Self.result(of: message, animator: call.animator)
      else {
        fault(.protocolViolation, "the plugin host sent an answer of unknown status")
        return
      }
      callAtHost = nil
      policy.hostWorked()
      effects.append(.answer(call.ticket, result))
      dispatch()
    default:
      fault(
        .protocolViolation,
        "the plugin host sent an unexpected \(message.kind) message (call \(message.call))")
    }
  }

  /// The result an answer message carries; nil for an unknown status.
  public static func result(of message: HostMessage, animator: String) -> PluginTimelineResult? {
    switch HostMessage.Status(rawValue: message.status) {
    case .timeline?, .binaryTimeline?:
      guard !message.payload.isEmpty else {
        return .failed("animator \(animator) reported success but returned no timeline")
      }
      return message.status == HostMessage.Status.timeline.rawValue
        ? .timeline(message.payload) : .binaryTimeline(message.payload)
    case .declined?: return .declined
    case .failed?:
      let message = String(decoding: message.payload.prefix(4096), as: UTF8.self)
      return .failed(String(message.prefix(1000)))
    case nil: return nil
    }
  }

  private mutating func updateCatalog(_ reported: [RegisteredAnimator]) {
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

  private mutating func timePassed() {
    let now = environment.now
    if let restart = restartAt, now >= restart {
      restartAt = nil
      startHost()
    }
    if scanAtHost, host != nil, let step = stepDeadline, now >= step {
      let milliseconds = Int(settings.loadTimeout * 1000)
      let what =
        loadingLibrary.map { "opening \($0) took more than \(milliseconds) ms" }
        ?? "the plugin host did not start within \(milliseconds) ms"
      fault(.timeout, what + " (limits.pluginLoadTimeoutMs)")
    }
    let milliseconds = Int(settings.callTimeout * 1000)
    if let call = callAtHost, now >= call.deadline, let host {
      var starved = false
      if let sent = call.sent, let start = sent.cpu,
        let end = environment.cpuSample(pid: host.pid)
      {
        starved = end.wasStarved(since: start, elapsed: now - sent.time)
      }
      fault(
        .timeout,
        "animator \(call.animator) did not answer within \(milliseconds) ms "
          + "(limits.pluginCallTimeoutMs)"
          + (starved ? ", the plugin host waiting for a CPU (the machine is overloaded)" : ""),
        blameless: starved)
    }
    let expired = queue.filter { now >= $0.deadline }
    queue.removeAll { now >= $0.deadline }
    for call in expired {
      effects.append(
        .answer(
          call.ticket,
          .faulted(
            .timeout,
            "animator \(call.animator) was not called within \(milliseconds) ms: the plugin "
              + "host was busy (limits.pluginCallTimeoutMs)")))
    }
  }

  // MARK: Failure

  /// Kills the host, answers every call, blames the library at fault and schedules a restart.
  /// - Parameter blameless: the fault is the machine's (a call starved of CPU), not the
  ///   plugin's: no strike.
  private mutating func fault(
    _ kind: PluginCallFault, _ message: String, blameless: Bool = false
  ) {
    guard let host else { return }
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
    stepDeadline = nil
    discardHost()
    let reason =
      whileLoading ? "crashed or hung the plugin host while loading (\(message))" : message
    let (wait, quarantinedNow) = policy.hostFailed(
      blaming: blamed, whileLoading: whileLoading, reason: reason)
    effects.append(
      .log(
        .warn,
        "plugin host (pid \(host.pid)) killed: \(message); restarting in "
          + "\(Int(wait * 1000)) ms"))
    if quarantinedNow, let blamed {
      let strikes = policy.strikes[blamed] ?? 0
      effects.append(
        .log(
          .error,
          "plugin \(blamed) quarantined after \(strikes) fault\(strikes == 1 ? "" : "s"): "
            + "\(reason); its animators fall back to \(PluginRegistry.fallbackAnimatorName) "
            + "until the next reload"))
    }
    phase = .restarting
    if wasScanning && !hasScanned && blamed == nil {
      effects.append(.failedBeforeFirstScan(message))
    }
    if wasScanning && blamed == nil {
      answerRescans(.failure(RescanFailure(message: message)))
    } else if wasScanning {
      // The retry skips the library now quarantined: it answers these.
      rescansWanted = rescansAtHost + rescansWanted
      rescansAtHost = []
    }
    scanWanted = true
    scheduleRestart(after: wait)
    if let failedCall { effects.append(.answer(failedCall.ticket, .faulted(kind, message))) }
    for call in waiting where call.id != failedCall?.id {
      effects.append(
        .answer(call.ticket, .faulted(.unavailable, "the plugin host went down (\(message))")))
    }
  }

  /// Every call waiting or at the host, removed from both.
  private mutating func takeCalls() -> [Call] {
    var calls = queue
    if let callAtHost { calls.insert(callAtHost, at: 0) }
    queue = []
    callAtHost = nil
    return calls
  }

  /// Forgets the host and has the shell kill it.
  private mutating func discardHost() {
    host = nil
    effects.append(.killHost)
  }

  /// How the host ended, naming the signal and the animator whose call it took down: "the
  /// plugin host was killed by SIGSEGV (Segmentation fault) during a call to animator X".
  private func endMessage(status: Int32?) -> String {
    var message =
      "the plugin host " + (status.map { HostProcess.describe(waitStatus: $0) } ?? "exited")
    if let call = callAtHost { message += " during a call to animator \(call.animator)" }
    return message
  }
}

@available(*, unavailable) extension HostSupervisor: Sendable {}
