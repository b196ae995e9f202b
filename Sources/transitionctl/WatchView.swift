import TransitionClient

/// The live `watch --pretty` view: one line per session, redrawn in place with ANSI escapes.
///
/// Each line shows the session, its animator and operation, a progress bar, the position in
/// the transition, frames received and frames dropped (gaps in `seq`, coalesced by the daemon
/// for a slow reader), and the state once the session completes.
///
/// The position is `at P/D s`: progress × duration out of the duration, i.e. the point of the
/// transition the frame shows. It is not the frame's `t` (seconds since `begin` on the
/// daemon's clock, which keeps counting while an interactive session waits or a session is
/// paused); `t N s` is shown only while the duration is not known yet.
struct WatchView {
  /// What the view knows about one session.
  struct Row {
    var session: String
    var animator = "?"
    var operation = ""
    var duration: Double?
    var progress = 0.0
    var t = 0.0
    var received = 0
    var dropped = 0
    var lastSeq: Int?
    var outcome: String?
  }

  private(set) var rows: [Row] = []
  private var drawnLines = 0
  /// Completed rows kept on screen, oldest dropped first.
  private let keptCompleted = 8
  /// Width of the progress bar in cells.
  private let barWidth = 24

  /// Records what the daemon said about a session (from `sessions` or a `begin` event).
  mutating func describe(session: String, animator: String, operation: String, duration: Double) {
    let index = rowIndex(session)
    rows[index].animator = animator
    rows[index].operation = operation
    rows[index].duration = duration
  }

  /// Records a frame.
  mutating func record(_ frame: FrameEvent) {
    let index = rowIndex(frame.session)
    if let lastSeq = rows[index].lastSeq, frame.seq > lastSeq + 1 {
      rows[index].dropped += frame.seq - lastSeq - 1
    }
    rows[index].lastSeq = frame.seq
    rows[index].received += 1
    rows[index].progress = frame.progress
    rows[index].t = frame.t
  }

  /// Records a session's completion.
  mutating func complete(session: String, finished: Bool) {
    let index = rowIndex(session)
    rows[index].outcome = finished ? "finished" : "cancelled"
    let completed = rows.indices.filter { rows[$0].outcome != nil }
    if completed.count > keptCompleted {
      rows.remove(at: completed[0])
    }
  }

  /// The escape sequences and text that replace the previous drawing with the current one.
  mutating func redraw() -> String {
    var text = drawnLines > 0 ? "\u{1B}[\(drawnLines)F" : ""
    for row in rows {
      text += "\u{1B}[2K" + Self.line(for: row, barWidth: barWidth) + "\n"
    }
    // Clear lines left over from a taller previous drawing.
    if drawnLines > rows.count {
      for _ in rows.count..<drawnLines { text += "\u{1B}[2K\n" }
      text += "\u{1B}[\(drawnLines - rows.count)F"
    }
    drawnLines = rows.count
    return text
  }

  /// One row's text.
  static func line(for row: Row, barWidth: Int) -> String {
    let clamped = min(max(row.progress, 0), 1)
    let filled = Int((clamped * Double(barWidth)).rounded())
    let bar =
      String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
    let percent = String(Int((clamped * 100).rounded()))
    let time =
      row.duration.map { "at \(NumberText.fixed(clamped * $0))/\(NumberText.fixed($0)) s" }
      ?? "t \(NumberText.fixed(row.t)) s"
    let name = "\(row.animator) \(row.operation)".trimmingSuffix(" ")
    return
      "\(row.session.padded(to: 6)) \(name.padded(to: 22)) [\(bar)] \(percent.leftPadded(to: 3))%  "
      + "\(time)  frames \(row.received)  dropped \(row.dropped)"
      + (row.outcome.map { "  \($0)" } ?? "")
  }

  private mutating func rowIndex(_ session: String) -> Int {
    if let index = rows.firstIndex(where: { $0.session == session }) { return index }
    rows.append(Row(session: session))
    return rows.count - 1
  }
}

extension String {
  fileprivate func padded(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }

  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }

  fileprivate func trimmingSuffix(_ suffix: Character) -> String {
    var text = self
    while text.last == suffix { text.removeLast() }
    return text
  }
}
