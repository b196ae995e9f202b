import Foundation
import SoakAnalysis

/// What one worker process did and saw, written as one JSON line on its standard output when
/// it ends; the soak merges them.
struct WorkerReport: Codable {
  /// The most problems of each kind kept (the counts go on).
  static let keptProblems = 20
  /// The most late frames and probe stalls kept as spans (the histograms count them all).
  static let keptSpans = 20_000

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
  /// Of the checked frames, those of delta subscriptions (docs/protocol.md, "Delta frames").
  var deltaFrames = 0
  /// Events a healthy subscriber could not read: one that does not decode, a delta that does
  /// not apply to the frames before it, a delta subscription whose first frame is no key frame.
  var malformed = 0
  /// Lateness of every checked frame.
  var lateness = LatenessHistogram()
  /// How late a process woke for a deadline (``WakeUpProbe``): the machine's share of the
  /// lateness.
  var wakeUps = LatenessHistogram()
  /// The checked frames later than ``SoakLimits/lateFrameSeconds``.
  var lateSpans: [LateSpan] = []
  /// The probe's wake-ups later than ``LatenessJudgement/stallFloor``.
  var stalls: [LateSpan] = []
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

  /// Keeps `span` in `spans` while fewer than ``keptSpans`` are.
  static func keep(_ span: LateSpan, in spans: inout [LateSpan]) {
    if spans.count < keptSpans { spans.append(span) }
  }

  /// How healthy subscribers' frames fared in `reports`, against the machine's wake-ups.
  static func latenessJudgement(of reports: [WorkerReport]) -> LatenessJudgement {
    var frames = LatenessHistogram()
    var wakeUps = LatenessHistogram()
    for report in reports {
      frames.merge(report.lateness)
      wakeUps.merge(report.wakeUps)
    }
    return LatenessJudgement(
      frames: frames, wakeUps: wakeUps, limit: SoakLimits.lateFrameSeconds,
      lateSpans: reports.flatMap(\.lateSpans), stalls: reports.flatMap(\.stalls))
  }

  /// The report as one line.
  var line: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
  }
}
