import TransitionClient
import TransitionJSON
import TransitionWire

/// One session's recording as `play` writes it: its `begin` event with the session's timeline,
/// every frame and its `complete` event, one line each, exactly as received.
///
/// ``record(from:to:orReadable:)`` may stop early when another descriptor (Ctrl-C's pipe, a
/// file watcher) becomes readable, and be called again to go on where it stopped.
struct SessionRecording {
  /// The session recorded.
  let session: String
  /// For a delta recording, the most frames from one key frame to the next: a delta frame that
  /// would pass it is written as the key frame of its full frame (``FrameEvent/fields`` with
  /// `"key": true`). Nil records full frames.
  let keyEvery: Int?
  private var sinceKey = 0

  /// Subscribes `client` to `session` (with its timeline, as a delta subscription when
  /// `keyEvery` is given).
  ///
  /// - Throws: the ``CommandFailure`` of the client's error.
  init(
    session: String, client: DaemonClient, fps: Double?, clock: SubscriptionClock?,
    keyEvery: Int?
  ) throws(CommandFailure) {
    self.session = session
    self.keyEvery = keyEvery
    do {
      _ = try client.subscribe(
        session: session, fps: fps, clock: clock, timeline: true,
        encoding: keyEvery == nil ? nil : .delta)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Writes the session's events to `output` until it completes, or until one of `others` is
  /// readable while the daemon's socket is waited for.
  ///
  /// - Returns: ``ExitCode/success`` when it finished, ``ExitCode/cancelled`` when cancelled,
  ///   nil when one of `others` became readable first.
  /// - Throws: ``ExitCode/sessionLost`` when the daemon stops or goes away first (a session
  ///   does not survive a restart of the daemon), and the failures of writing `output`.
  mutating func record(
    from client: DaemonClient, to output: OutputWriter, orReadable others: [Int32] = []
  ) throws(CommandFailure) -> Int32? {
    do {
      while true {
        guard let event = try client.nextEvent(timeout: nil, orReadable: others) else {
          return nil
        }
        switch event {
        case .begin(let begin) where begin.session == session:
          try output.line(begin.line)
        case .frame(let frame) where frame.session == session:
          sinceKey += 1
          if frame.key == true { sinceKey = 0 }
          if let keyEvery, frame.key == false, sinceKey >= keyEvery {
            var key = frame.fields
            key["key"] = .bool(true)
            try output.line(JSONValue.object(key).serialized)
            sinceKey = 0
          } else {
            try output.line(frame.line)
          }
        case .complete(let complete) where complete.session == session:
          try output.line(complete.line)
          return complete.finished ? ExitCode.success : ExitCode.cancelled
        case .stopping:
          throw lost
        default:
          continue
        }
      }
    } catch let error as ClientError where error.code == .closed {
      throw lost
    } catch {
      throw CommandFailure(any: error)
    }
  }

  /// The failure of a session that the daemon took with it when it stopped.
  private var lost: CommandFailure {
    CommandFailure(
      ExitCode.sessionLost,
      "transitiond stopped during session \(session): the session is lost "
        + "(sessions do not survive a restart)")
  }
}
