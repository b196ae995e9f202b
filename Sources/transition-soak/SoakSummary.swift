import SoakAnalysis

/// The figures a soak prints: each metric's level at the start and the end of the judged
/// part, its growth and slope against its slack, the idle and settled values, and what the
/// workers did.
struct SoakSummary {
  var seconds: Double
  var warmUp: Double
  var daemonPID: Int32
  var samples: [SoakMetric: [MetricSample]]
  var idle: [SoakMetric: Double]
  var settled: [SoakMetric: Double]
  var reports: [WorkerReport]
  var hostKills: Int
  var reloads: Int
  var routeSwitches: Int
  /// The daemon's frame clock ticks, and those whose render ended after their deadline.
  var ticks: (rendered: Double, late: Double)

  var text: String {
    var lines = [
      "transition-soak: \(Int(seconds)) s, judged after a warm-up of \(Int(warmUp)) s; "
        + "transitiond pid \(daemonPID); workers: "
        + Dictionary(grouping: reports.filter { $0.role != "admin" }, by: \.role)
        .sorted { $0.key < $1.key }.map { "\($0.value.count) \($0.key)" }.joined(separator: ", ")
    ]
    for metric in SoakMetric.allCases {
      guard let judgement = GrowthJudgement(samples: samples[metric] ?? [], slack: metric.slack)
      else { continue }
      lines.append(
        "  \(metric.rawValue.padding(12)) start \(Self.format(judgement.baseline, metric)), "
          + "end \(Self.format(judgement.end, metric)), growth \(Self.format(judgement.growth, metric, signed: true)) "
          + "(slack \(Self.format(metric.slack, metric))), slope \(Self.format(judgement.slopePerMinute, metric, signed: true))/min, "
          + "range \(Self.format(judgement.range.lowerBound, metric))–\(Self.format(judgement.range.upperBound, metric)); "
          + "idle \(idle[metric].map { Self.format($0, metric) } ?? "?") → settled \(settled[metric].map { Self.format($0, metric) } ?? "?")"
      )
    }
    let sum = { (value: (WorkerReport) -> Int) in reports.reduce(0) { $0 + value($1) } }
    let judgement = WorkerReport.latenessJudgement(of: reports)
    let (lateness, wakeUps) = (judgement.frames, judgement.wakeUps)
    let unexplained = judgement.machineKeptUp ? judgement.unexplainedLateFrames : 0
    let milliseconds = { (seconds: Double) in "\(((seconds * 10_000).rounded() / 10)) ms" }
    // More than one only where each is pinned to a CPU (SoakRun.probeCPUs).
    let probes = reports.filter { $0.role == WakeUpProbe.role }.count
    lines.append(
      "  requests \(sum(\.requests)) (refused \(sum(\.refused)), unanswered \(sum(\.unanswered))), "
        + "connections \(sum(\.connections)), sessions begun \(sum(\.sessionsBegun)) "
        + "(never completed \(sum(\.incomplete))), frames read \(sum(\.frames))")
    lines.append(
      "  healthy subscribers: \(sum(\.checkedFrames)) frames (\(sum(\.deltaFrames)) of them deltas), "
        + "unreadable events \(sum(\.malformed)), seq gaps \(sum(\.gaps)), lateness "
        + "p50 \(milliseconds(lateness.percentile(0.5))), p99 \(milliseconds(lateness.percentile(0.99))), "
        + "p99.9 \(milliseconds(lateness.percentile(0.999))), max \(milliseconds(lateness.maximum)), "
        + "later than \(Int(SoakLimits.lateFrameSeconds * 1000)) ms: \(lateness.count(laterThan: SoakLimits.lateFrameSeconds))"
    )
    lines.append(
      "  the daemon: \(Int(ticks.rendered)) frame clock ticks rendered, \(Int(ticks.late)) of them "
        + "after their deadline")
    lines.append(
      "  the machine: a 60 Hz deadline relayed through a pipe "
        + (probes > 1 ? "(\(probes) probes, each on a CPU of its own) " : "(one probe) ")
        + "arrived p50 \(milliseconds(wakeUps.percentile(0.5))), "
        + "p99 \(milliseconds(wakeUps.percentile(0.99))), max \(milliseconds(wakeUps.maximum)) late "
        + "(\(wakeUps.total) wake-ups, \(judgement.stalls.count) later than "
        + "\(milliseconds(LatenessJudgement.stallFloor)))")
    lines.append(
      judgement.machineKeptUp
        ? "  lateness judged strictly: the machine was quiet (wake-ups p99 within the stall floor, p99.9 within the limit); "
          + "late frames the machine's stalls explain \(judgement.lateFrames - unexplained), "
          + "the daemon's \(unexplained)"
        : "  lateness judged on the daemon's share: the machine was busy; frames p99 "
          + "\(milliseconds(judgement.addedLateness)) beyond the wake-ups' p99 (limit "
          + "\(milliseconds(SoakLimits.lateFrameSeconds)))")
    lines.append(
      "  admin: \(reloads) reloads, \(routeSwitches) route switches, plugin host killed \(hostKills) times; "
        + "viewer: \(sum(\.eventStreams)) event streams, \(sum(\.streamEvents)) events")
    for report in reports where !report.problems.isEmpty {
      lines.append("  \(report.role) (seed \(report.seed)):")
      lines += report.problems.map { "    \($0)" }
    }
    return lines.joined(separator: "\n")
  }

  /// `value` of `metric` in its unit: MB for memory, a count otherwise.
  static func format(_ value: Double, _ metric: SoakMetric, signed: Bool = false) -> String {
    let sign = signed && value >= 0 ? "+" : ""
    switch metric {
    case .residentBytes: return sign + "\(((value / 1_048_576) * 100).rounded() / 100) MB"
    default: return sign + "\((value * 10).rounded() / 10)"
    }
  }
}

extension String {
  fileprivate func padding(_ width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
