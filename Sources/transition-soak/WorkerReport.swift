import Foundation
import SoakAnalysis

/// What one worker process did and saw, written as one JSON line on its standard output when
/// it ends; the soak merges them.
struct WorkerReport: Codable {
  /// The most problems of each kind kept (the counts go on).
  static let keptProblems = 20

  var role: String
  var seed: UInt64 = 0
  /// Requests sent that expected a reply.
  var requests = 0
  /// Requests refused with `ok: false` (a reply all the same).
  var refused = 0
  /// Requests that got no reply within their bound, or whose connection closed first.
  var unanswered = 0
  var sessionsBegun = 0
  /// Sessions that never sent `complete` to a subscriber reading them.
  var incomplete = 0
  var connections = 0
  var frames = 0
  /// Frames of this worker's healthy subscriptions, checked for gaps and lateness.
  var checkedFrames = 0
  /// `seq` gaps seen by a healthy subscriber.
  var gaps = 0
  /// Lateness of every checked frame.
  var lateness = LatenessHistogram()
  /// How late a process woke for a deadline (``WakeUpProbe``): the machine's share of the
  /// lateness.
  var wakeUps = LatenessHistogram()
  /// HTTP event streams opened and the events they carried.
  var eventStreams = 0
  var streamEvents = 0
  /// Descriptions of the first problems of every kind.
  var problems: [String] = []

  init(role: String) {
    self.role = role
  }

  mutating func note(_ problem: String) {
    if problems.count < Self.keptProblems { problems.append(problem) }
  }

  /// The report as one line.
  var line: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
  }
}
