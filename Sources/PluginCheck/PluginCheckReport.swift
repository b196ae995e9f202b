/// What `check-plugin` found: one result per rule checked, in order.
public struct PluginCheckReport: Equatable, Sendable {
  /// The rules, as named in the report (docs/plugins.md, "Checking a plugin").
  public enum Rule: String, Sendable, CaseIterable {
    /// The daemon's load checks: ownership and permissions, `dlopen`, the entry symbol, the ABI
    /// version, the descriptor and each animator.
    case load
    /// The animator answers a scene it serves with a timeline that decodes and validates
    /// (unique ids among them); a decline is reported, not failed.
    case timeline
    /// Every layer of both screens is in the timeline with its id, and the animator's own
    /// layers are named `<animator>.…`.
    case layerIDs = "layer ids"
    /// The first frame draws exactly the `from` screen.
    case firstFrame = "first frame"
    /// The last frame draws exactly the `to` screen.
    case lastFrame = "last frame"
    /// A session cancelled halfway ends on the `from` screen.
    case cancel
    /// Nothing jumps in the millisecond after the first frame or before the last: at most
    /// `PluginChecker.jumpAllowance` of the screen changes there (`CoarseRaster.changedShare`).
    case noJump = "no jump"
    /// Every layer a `clipTo` clips can be seen at some sampled instant (a warning).
    case clip
    /// Each animator was checked on at least one scene.
    case coverage
  }

  public enum Status: String, Sendable {
    case passed = "ok"
    case skipped = "skipped"
    /// Worth a look, not a failure.
    case warning = "warning"
    case failed = "FAILED"
  }

  public struct Result: Equatable, Sendable {
    public var rule: Rule
    /// What was checked: the library, or `animator on scene`.
    public var subject: String
    public var status: Status
    /// Why it failed or was skipped; empty when it passed.
    public var detail: String
  }

  public var library: String
  public var results: [Result] = []

  public init(library: String) {
    self.library = library
  }

  mutating func add(_ rule: Rule, _ subject: String, _ status: Status, _ detail: String = "") {
    results.append(Result(rule: rule, subject: subject, status: status, detail: detail))
  }

  /// The failed results.
  public var failures: [Result] { results.filter { $0.status == .failed } }

  /// Whether every rule checked passed.
  public var passed: Bool { failures.isEmpty }

  /// The report as text: one line per result, then a summary line.
  public var text: String {
    var lines = ["check-plugin \(library)"]
    for result in results {
      var line = "  \(result.status.rawValue): \(result.rule.rawValue): \(result.subject)"
      if !result.detail.isEmpty { line += ": \(result.detail)" }
      lines.append(line)
    }
    let checked = results.filter { $0.status != .skipped && $0.status != .warning }.count
    lines.append(
      passed
        ? "passed: \(checked) checks"
        : "failed: \(failures.count) of \(checked) checks")
    return lines.joined(separator: "\n") + "\n"
  }
}
