import Glibc

/// The progress bar of `transitionctl render` on standard error, drawn only when standard
/// error is a terminal: frames captured of the total, then frames encoded, each with an
/// estimate of the time left from the pace so far. One line, redrawn in place.
final class RenderProgress {
  private let enabled: Bool
  private let total: Int
  private var phaseStart = RenderProgress.now()
  private var drawn = false

  /// - Parameter quiet: `--quiet`: draw nothing.
  init(total: Int, quiet: Bool) {
    self.total = total
    enabled = !quiet && isatty(STDERR_FILENO) == 1
  }

  /// Starts timing a new phase (capturing, then encoding).
  func startPhase() { phaseStart = Self.now() }

  /// Draws `done` of the total in `phase` (`captured`, `encoded`).
  func update(_ done: Int, _ phase: String) {
    guard enabled else { return }
    let width = 30
    let filled = total == 0 ? width : min(width, done * width / total)
    let elapsed = Self.now() - phaseStart
    var estimate = ""
    if done > 0, done < total {
      let left = elapsed / Double(done) * Double(total - done)
      estimate = ", about \(Int(left.rounded(.up))) s left"
    }
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
    try? StandardStreams.error.write(
      "\r\u{1B}[K[\(bar)] \(done)/\(total) frames \(phase)\(estimate)")
    drawn = true
  }

  /// Clears the bar's line.
  func clear() {
    guard enabled, drawn else { return }
    try? StandardStreams.error.write("\r\u{1B}[K")
    drawn = false
  }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
