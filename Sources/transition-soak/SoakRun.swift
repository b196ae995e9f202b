import Foundation
import Glibc
import SoakAnalysis
import TransitionClient
import TransitionJSON
import UnixIO

/// One soak: the daemon, its workers, the admin's churn (a `reload` every 10 s, a route switch
/// every 5 s, the plugin host killed every 30 s), the samples, and the judgement.
final class SoakRun {
  let options: SoakOptions
  /// Seconds between two `reload`s, two route switches and two kills of the plugin host.
  static let reloadEvery = 10
  static let routeSwitchEvery = 5
  static let hostKillEvery = 30

  /// The workers: how many processes of each role, besides a wake-up probe on each CPU
  /// (``probeCPUs``).
  static let workers: [(role: String, count: Int)] = [
    ("churn", 3), ("steady", 2), ("stalled", 1), ("viewer", 1),
  ]

  /// The CPUs the soak may use, each of which gets a wake-up probe of its own: a virtual
  /// machine's CPU can stall alone (its host runs something else on it for a few
  /// milliseconds), holding the daemon or a reader while a probe on another CPU runs on.
  /// Empty (one probe, on no CPU in particular) where a process cannot be pinned to each.
  static let probeCPUs: [Int] = {
    let cpus = (try? CPUAffinity.allowed()) ?? []
    return cpus.allSatisfy(CPUAffinity.canRun(on:)) ? cpus : []
  }()

  private var samples: [SoakMetric: [MetricSample]] = [:]
  private var admin = WorkerReport(role: "admin")
  private var hostKills = 0
  private var reloads = 0
  private var routeSwitches = 0

  init(options: SoakOptions) {
    self.options = options
  }

  /// Runs the soak and prints its figures.
  /// - Returns: the reasons it failed; empty when it passed.
  /// - Throws: ``SoakFailure`` when it cannot run.
  func run() throws -> [String] {
    let daemon = try SoakDaemon(
      binDirectory: options.binDirectory, animatorDirectory: options.animatorDirectory)
    // The directory (the daemon's log) stays when the soak fails.
    var keepDirectory = true
    defer { if !keepDirectory { try? FileManager.default.removeItem(atPath: daemon.directory) } }
    let client: DaemonClient
    let transitions: [SoakTransition]
    do {
      client = try DaemonClient(path: daemon.socketPath)
      transitions = try SoakScenes.transitions(
        animators: try client.animators().animators, scenesDirectory: options.scenesDirectory)
    } catch {
      daemon.stop()
      throw SoakFailure("cannot set up the soak: \(error)")
    }
    let idle = sample(daemon, client)
    let start = Monotonic.now
    let deadline = start + options.seconds
    let judgedFrom = start + options.warmUpSeconds
    var workers: [WorkerProcess] = []
    var seed = UInt64(truncatingIfNeeded: Int(start * 1000))
    do {
      let roles =
        Self.workers.filter { $0.role != "viewer" || !daemon.viewerURL.isEmpty }.flatMap {
          Array(repeating: ($0.role, Int?.none), count: $0.count)
        }
        + (Self.probeCPUs.isEmpty ? [("probe", nil)] : Self.probeCPUs.map { ("probe", $0) })
      for (role, cpu) in roles {
        seed &+= 1
        workers.append(
          try WorkerProcess(
            role: role,
            arguments: [
              "--socket", daemon.socketPath, "--until", "\(deadline)", "--seed", "\(seed)",
              "--scenes", options.scenesDirectory, "--viewer", daemon.viewerURL,
            ], cpu: cpu))
      }
    } catch {
      for worker in workers { worker.process.terminate() }
      daemon.stop()
      throw SoakFailure("cannot start a worker: \(error)")
    }
    var random = SoakRandom(seed: seed)
    var second = 0
    var died: String?
    while case let now = Monotonic.now, now < deadline {
      guard daemon.process.isRunning else {
        died =
          "transitiond died \(Int(Monotonic.now - start)) s into the soak "
          + (daemon.process.terminationReason == .uncaughtSignal
            ? "by signal \(daemon.process.terminationStatus)"
            : "with status \(daemon.process.terminationStatus)")
        break
      }
      Monotonic.sleep(start + Double(second + 1) - now)
      second += 1
      let values = sample(daemon, client)
      if Monotonic.now >= judgedFrom {
        for (metric, value) in values {
          samples[metric, default: []].append(
            MetricSample(time: Monotonic.now - start, value: value))
        }
      }
      if second % Self.routeSwitchEvery == 0,
        let transition = transitions.randomElement(using: &random)
      {
        let reply = client.ask(
          .route,
          ["operation": .string(transition.operation), "animator": .string(transition.animator)],
          into: &admin)
        if reply?.ok == true { routeSwitches += 1 }
      }
      if second % Self.reloadEvery == 0 {
        if client.ask(.reload, within: 30, into: &admin)?.ok == true { reloads += 1 }
      }
      if second % Self.hostKillEvery == Self.hostKillEvery / 2, let host = daemon.pluginHostPID {
        if kill(host, SIGKILL) == 0 { hostKills += 1 }
      }
    }
    let reports = workers.map { $0.finish() }
    // The churn is over: every session ends and every worker's connection closes.
    let settleBy = Monotonic.now + 15
    var settled = sample(daemon, client)
    while Monotonic.now < settleBy,
      settled[.sessions] != 0 || connectionsNow > 1
    {
      Monotonic.sleep(0.2)
      settled = sample(daemon, client)
    }
    client.close()
    let status = daemon.stop()
    var failures = judge(reports: reports, idle: idle, settled: settled)
    if let died {
      failures.insert(died, at: 0)
    } else if status != 0 {
      failures.append("transitiond exited with status \(status) when stopped")
    }
    print(
      SoakSummary(
        seconds: options.seconds, warmUp: options.warmUpSeconds, daemonPID: daemon.pid,
        samples: samples, idle: idle, settled: settled, reports: reports + [admin],
        hostKills: hostKills, reloads: reloads, routeSwitches: routeSwitches, ticks: ticks
      ).text)
    keepDirectory = !failures.isEmpty
    if !failures.isEmpty {
      print("transitiond's log, last lines (\(daemon.logPath)):\n\(daemon.logTail(lines: 40))")
    }
    return failures
  }

  /// Every metric now: /proc for memory, descriptors and threads, `stats` for timers and
  /// sessions.
  private func sample(_ daemon: SoakDaemon, _ client: DaemonClient) -> [SoakMetric: Double] {
    var values: [SoakMetric: Double] = [:]
    values[.residentBytes] = ProcessProbe.residentBytes(of: daemon.pid)
    values[.descriptors] = ProcessProbe.descriptors(of: daemon.pid)
    values[.threads] = ProcessProbe.threads(of: daemon.pid)
    if let reply = client.ask(.stats, into: &admin), let stats = try? Stats(reply) {
      values[.timers] = stats["timers.scheduled"]
      values[.sessions] = stats["sessions.active"]
      connectionsNow = stats["connections.current"]
      ticks = (stats["ticks.rendered"], stats["ticks.late"])
    }
    return values
  }

  /// `stats.ticks.rendered` and `stats.ticks.late` at the last sample.
  private var ticks = (rendered: 0.0, late: 0.0)
  /// `stats.connections.current` at the last sample.
  private var connectionsNow = 0.0

  /// The reasons the soak failed.
  private func judge(
    reports: [WorkerReport], idle: [SoakMetric: Double], settled: [SoakMetric: Double]
  ) -> [String] {
    var failures: [String] = []
    for metric in SoakMetric.allCases {
      guard let judgement = GrowthJudgement(samples: samples[metric] ?? [], slack: metric.slack)
      else {
        failures.append("\(metric.rawValue): too few samples after the warm-up to judge")
        continue
      }
      if judgement.exceeded {
        failures.append(
          "\(metric.rawValue) grew by \(SoakSummary.format(judgement.growth, metric)) "
            + "(slack \(SoakSummary.format(metric.slack, metric)))")
      }
      if let slack = metric.idleSlack, let before = idle[metric], let after = settled[metric],
        after > before + slack
      {
        failures.append(
          "\(metric.rawValue) stayed at \(SoakSummary.format(after, metric)) once the churn "
            + "ended, \(SoakSummary.format(before, metric)) before it began")
      }
    }
    let all = reports + [admin]
    let unanswered = all.reduce(0) { $0 + $1.unanswered }
    if unanswered > 0 { failures.append("\(unanswered) requests got no reply") }
    let gaps = all.reduce(0) { $0 + $1.gaps }
    if gaps > 0 { failures.append("healthy subscribers saw \(gaps) seq gaps") }
    let malformed = all.reduce(0) { $0 + $1.malformed }
    if malformed > 0 { failures.append("healthy subscribers could not read \(malformed) events") }
    if let failure = WorkerReport.latenessJudgement(of: all).failure { failures.append(failure) }
    let incomplete = all.reduce(0) { $0 + $1.incomplete }
    if incomplete > 0 { failures.append("\(incomplete) sessions never completed for their reader") }
    return failures
  }
}
