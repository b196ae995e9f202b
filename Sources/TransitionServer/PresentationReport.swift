import FrameStreaming
import TransitionJSON
import TransitionWire

/// The fields of `presented` (docs/protocol.md, "presented"): frame `seq` of `session`,
/// sent on display-paced `subscription`, was presented at monotonic `time`.
struct PresentationReport: Equatable {
  var subscription: Int
  var session: String
  var seq: Int
  var time: Double

  init(subscription: Int, session: String, seq: Int, time: Double) {
    self.subscription = subscription
    self.session = session
    self.seq = seq
    self.time = time
  }

  init(_ request: Request) throws(WireError) {
    subscription = try request.requiredInteger("subscription")
    session = try request.requiredString("session")
    seq = try request.requiredInteger("seq")
    time = try request.requiredNumber("time")
  }

  /// Checks that `time` is an instant on the daemon's clock near monotonic `now`.
  ///
  /// - Throws: `bad_request` for a `time` more than ``DisplayTiming/vblankReach`` from now.
  func checkTime(now: Double) throws(WireError) {
    try DisplayTiming.checkReach(of: time, named: "time", now: now)
  }
}
