import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

/// `display`, `presented` and `frame`: pacing by the subscriber's display, its presentation
/// feedback, and the pull of one frame (docs/protocol.md, "Display pacing").
extension ServerCore {
  /// `display`: paces the wall subscription `id` by `timing` from now on.
  ///
  /// - Throws: `unknown_subscription`, or `bad_request` for a virtual subscription.
  func changeDisplay(
    _ id: Int, to timing: DisplayTiming, id requestID: RequestID?, from client: Client
  ) throws(WireError) {
    let subscription = try displayableSubscription(id, of: client)
    client.reply(
      id: requestID, ["subscription": .number(Double(id)), "display": timing.json])
    subscription.retime(to: timing, requested: true, at: clock.now)
  }

  /// `presented`: frame `seq` of a session, sent on a display-paced subscription, was
  /// presented at `time` (``Subscription/report(_:at:)``). The reply carries nothing: one
  /// report a frame stays cheap.
  ///
  /// - Throws: `unknown_subscription`; `bad_request` for a `time` more than
  ///   ``DisplayTiming/vblankReach`` from now, a subscription that is not display-paced, or a
  ///   frame not sent to it or reported already.
  func presented(_ report: PresentationReport, id: RequestID?, from client: Client)
    throws(WireError)
  {
    let subscription = try displayableSubscription(report.subscription, of: client)
    let now = clock.now
    try report.checkTime(now: now)
    let moved = try subscription.report(report)
    client.reply(id: id)
    if let moved { subscription.retime(to: moved, requested: false, at: now) }
  }

  /// `frame`: the frame of a running session at instant `at`, in the reply (`frame`), the
  /// same evaluation as a paced frame showing `at` (its `t` is `at` minus the session's
  /// start), with `seq` 0: it belongs to no stream.
  ///
  /// - Throws: `unknown_session`.
  func pullFrame(_ pull: FramePull, id: RequestID?, from client: Client) throws(WireError) {
    let session = try existingSession(pull.session)
    let progress = session.progress(at: pull.at)
    let t = pull.at - session.startTime
    if pull.geometry == .none {
      session.render(seq: 0, progress: progress, t: t) { line in
        client.send(WireMessage.frameReply(id: id, frameLine: line))
      }
    } else {
      var encoder = FrameEncoder(geometry: pull.geometry)
      session.evaluate(progress: progress, t: t) { frame in
        let line = encoder.encode(session: session.id, seq: 0, frame: frame)
        line.withUnsafeBytes { client.send(WireMessage.frameReply(id: id, frameLine: $0)) }
      }
    }
  }

  /// The wall subscription `id` of `client`.
  private func displayableSubscription(_ id: Int, of client: Client) throws(WireError)
    -> Subscription
  {
    guard let subscription = client.subscription(id: id) else {
      throw WireError(
        .unknownSubscription, "no subscription \(id) on this connection (it may have ended)")
    }
    guard subscription.clock == .wall else {
      throw WireError(
        .badRequest, "subscription \(id) has the virtual clock: display pacing is for wall frames")
    }
    return subscription
  }
}
