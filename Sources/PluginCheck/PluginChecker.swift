import DataAnimator
import PluginLoader
import PluginValues
import TransitionKit

/// Checks one plugin library as an author's CI would: the daemon's own load checks, then every
/// animator on every scene whose operation it serves (docs/plugins.md, "Checking a plugin").
public enum PluginChecker {
  /// The most a drawn sample may differ (in one colour channel) where a frame must draw
  /// exactly a screen: rounding only.
  public static let drawnTolerance = 1e-9
  /// The most of the screen that may change in the millisecond next to either end.
  public static let jumpAllowance = 0.005

  /// Loads the library at `path` with the daemon's rules and checks its animators on `scenes`.
  public static func check(library path: String, scenes: [CheckScene]) -> PluginCheckReport {
    var report = PluginCheckReport(library: path)
    let registry = PluginRegistry(
      configuration: .init(
        searchPath: PluginSearchPath(configured: [path], executableDirectory: nil)))
    let load = registry.rescan()
    for problem in load.problems {
      report.add(.load, path, .failed, problem.message)
    }
    guard let plugin = load.loaded.first else {
      if load.problems.isEmpty {
        let reason =
          load.diagnostics.last?.message ?? "\(path) is not a transitiond plugin"
        report.add(.load, path, .failed, reason)
      }
      return report
    }
    if load.problems.isEmpty {
      let names = plugin.animatorNames.joined(separator: ", ")
      report.add(
        .load, path, .passed, "plugin \(plugin.name) \(plugin.version), animators \(names)")
    }
    for animator in registry.animators {
      var checked = 0
      for scene in scenes {
        let subject = "\(animator.name) on \(scene.name) (\(scene.context.operation.rawValue))"
        guard animator.operations.contains(scene.context.operation) else { continue }
        checked += 1
        check(animator.name, scene, subject, into: &report) {
          registry.makeTimeline(animator: animator.name, contextJSON: $0)
        }
      }
      if checked == 0 {
        let operations = animator.operations.map(\.rawValue).sorted().joined(separator: ", ")
        report.add(
          .coverage, animator.name, .failed,
          "no scene has an operation it serves (\(operations)); give --scene FILE")
      }
    }
    return report
  }

  /// Checks a data animator, read from `path` by `PluginRegistry.readDataAnimator`, with the
  /// drawn-frame checks on every scene whose operation it serves.
  public static func check(_ animator: DataAnimator, path: String, scenes: [CheckScene])
    -> PluginCheckReport
  {
    var report = PluginCheckReport(library: path)
    let operations = animator.operations.map(\.rawValue).sorted().joined(separator: ", ")
    report.add(.load, path, .passed, "data animator \(animator.name), operations \(operations)")
    var checked = 0
    for scene in scenes where animator.operations.contains(scene.context.operation) {
      checked += 1
      let subject = "\(animator.name) on \(scene.name) (\(scene.context.operation.rawValue))"
      check(animator.name, scene, subject, into: &report) { context in
        animator.timelineResult(forContextJSON: context)
      }
    }
    if checked == 0 {
      report.add(
        .coverage, animator.name, .failed,
        "no scene has an operation it serves (\(operations)); give --scene FILE")
    }
    return report
  }

  private static func check(
    _ animator: String, _ scene: CheckScene, _ subject: String,
    into report: inout PluginCheckReport, makeTimeline: ([UInt8]) -> PluginTimelineResult
  ) {
    let timeline: Timeline
    let result = makeTimeline(scene.contextJSON)
    switch result {
    case .declined:
      report.add(.timeline, subject, .skipped, "declined the scene")
      return
    case .failed(let message), .faulted(_, let message):
      report.add(.timeline, subject, .failed, "failed: \(message)")
      return
    case .timeline, .binaryTimeline:
      do {
        guard let decoded = try result.decodedTimeline() else { return }
        timeline = decoded
      } catch {
        report.add(.timeline, subject, .failed, "invalid timeline: \(error.message)")
        return
      }
    }
    report.add(.timeline, subject, .passed)
    let context = scene.context
    let problems = layerIDProblems(timeline, context: context, animator: animator)
    report.add(
      .layerIDs, subject, problems.isEmpty ? .passed : .failed,
      problems.joined(separator: "; "))

    let evaluator = TimelineEvaluator(timeline)
    let from = CoarseRaster(context.from, container: context.container)
    let to = CoarseRaster(context.to, container: context.container)
    drawn(
      .firstFrame, subject, evaluator.frame(progress: 0), like: from, "the from screen", context,
      &report)
    drawn(
      .lastFrame, subject, evaluator.frame(progress: 1), like: to, "the to screen", context, &report
    )
    let step = 0.001 / timeline.duration
    var jumps: [String] = []
    for (end, near) in [(0.0, step), (1.0, 1 - step)] {
      let share = CoarseRaster(evaluator.frame(progress: end), container: context.container)
        .changedShare(
          from: CoarseRaster(evaluator.frame(progress: near), container: context.container))
      if share > jumpAllowance {
        jumps.append(
          "\(rounded(share * 100))% of the screen jumps in the millisecond at progress \(Int(end))")
      }
    }
    report.add(.noJump, subject, jumps.isEmpty ? .passed : .failed, jumps.joined(separator: "; "))
    for problem in ClipVisibility.neverSeen(timeline) {
      report.add(.clip, subject, .warning, problem)
    }
    do {
      let (finished, frame) = try cancelledFrame(timeline, after: 0.5)
      guard finished == false else {
        report.add(.cancel, subject, .failed, "a session cancelled halfway did not end cancelled")
        return
      }
      drawn(.cancel, subject, frame, like: from, "the from screen", context, &report)
    } catch {
      report.add(.cancel, subject, .failed, error.message)
    }
  }

  /// Compares what `frame` draws with a screen drawn by itself.
  private static func drawn(
    _ rule: PluginCheckReport.Rule, _ subject: String, _ frame: Frame, like screen: CoarseRaster,
    _ screenName: String, _ context: TransitionContext, _ report: inout PluginCheckReport
  ) {
    let difference = CoarseRaster(frame, container: context.container)
      .largestDifference(from: screen)
    if difference <= drawnTolerance {
      report.add(rule, subject, .passed)
    } else {
      let which = rule == .cancel ? "ends on a frame that" : "is drawn but"
      report.add(
        rule, subject, .failed,
        "\(which) does not look like \(screenName) alone (a colour channel differs by "
          + "\(rounded(difference)))")
    }
  }

  /// Context layers missing from the timeline and added layers not named `<animator>.…`.
  static func layerIDProblems(_ timeline: Timeline, context: TransitionContext, animator: String)
    -> [String]
  {
    let ids = Set(timeline.layers.map(\.id))
    let contextIDs = (context.from.layers + context.to.layers).map(\.id)
    var problems: [String] = []
    let missing = contextIDs.filter { !ids.contains($0) }
    if !missing.isEmpty {
      problems.append("context layers missing from the timeline: \(list(missing))")
    }
    let known = Set(contextIDs)
    let unprefixed = timeline.layers.map(\.id).filter {
      !known.contains($0) && !$0.hasPrefix(animator + ".")
    }
    if !unprefixed.isEmpty {
      problems.append("added layers not named \(animator).…: \(list(unprefixed))")
    }
    return problems
  }

  private static func list(_ ids: [String]) -> String {
    let shown = ids.prefix(5).joined(separator: ", ")
    return ids.count > 5 ? "\(shown) and \(ids.count - 5) more" : shown
  }

  private static func rounded(_ value: Double) -> String {
    String((value * 1000).rounded() / 1000)
  }
}
