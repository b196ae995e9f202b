import FrameStreaming
import TransitionJSON
import TransitionKit

/// The server's counters, as the `stats` op reports them.
///
/// Updated on the core's thread by the clients, streams and sessions that do the counted
/// work.
final class ServerStats {
  /// The monotonic time the daemon started, for `uptime`.
  let startTime: Double
  var connectionsCurrent = 0
  var connectionsTotal = 0
  var sessionsCompleted = 0
  var sessionsCancelled = 0
  /// Frame lines written to subscribers (each subscriber counted).
  var framesSent = 0
  /// Frames a slow subscriber never got because a newer one replaced them.
  var framesCoalesced = 0
  var bytesSent = 0
  var bytesReceived = 0
  /// Clients disconnected for reading too slowly.
  var slowSubscribersDisconnected = 0
  /// The frame path's own counters (frames rendered, ticks rendered and late, frames
  /// deferred), which its streams and clocks keep.
  let frames = FrameStreamStats()
  var framesRendered: Int {
    get { frames.framesRendered }
    set { frames.framesRendered = newValue }
  }
  var ticksRendered: Int {
    get { frames.ticksRendered }
    set { frames.ticksRendered = newValue }
  }
  var ticksLate: Int {
    get { frames.ticksLate }
    set { frames.ticksLate = newValue }
  }
  var framesDeferred: Int {
    get { frames.framesDeferred }
    set { frames.framesDeferred = newValue }
  }
  /// Sessions' timelines compiled, and those whose session shared what an equal timeline's
  /// session compiled instead (``CompiledTimelines``).
  var timelinesCompiled = 0
  var timelinesShared = 0
  /// Sessions begun, by the animator that served them.
  var sessionsByAnimator: [String: Int] = [:]

  init(startTime: Double) {
    self.startTime = startTime
  }

  /// The `stats` object of the `stats` reply.
  func json(now: Double, activeSessions: Int, subscriptions: Int, scheduledTimers: Int)
    -> JSONValue
  {
    .object([
      "uptime": .number(((now - startTime) * 1000).rounded() / 1000),
      "connections": .object([
        "current": .number(Double(connectionsCurrent)),
        "total": .number(Double(connectionsTotal)),
      ]),
      "sessions": .object([
        "active": .number(Double(activeSessions)),
        "completed": .number(Double(sessionsCompleted)),
        "cancelled": .number(Double(sessionsCancelled)),
      ]),
      "subscriptions": .number(Double(subscriptions)),
      "frames": .object([
        "sent": .number(Double(framesSent)),
        "rendered": .number(Double(framesRendered)),
        "coalesced": .number(Double(framesCoalesced)),
      ]),
      "bytes": .object([
        "sent": .number(Double(bytesSent)),
        "received": .number(Double(bytesReceived)),
      ]),
      "ticks": .object([
        "rendered": .number(Double(ticksRendered)), "late": .number(Double(ticksLate)),
        "deferred": .number(Double(framesDeferred)),
      ]),
      "timelines": .object([
        "compiled": .number(Double(timelinesCompiled)),
        "shared": .number(Double(timelinesShared)),
      ]),
      "timers": .object(["scheduled": .number(Double(scheduledTimers))]),
      "slowDisconnects": .number(Double(slowSubscribersDisconnected)),
      "animators": .object(sessionsByAnimator.mapValues { .number(Double($0)) }),
    ])
  }
}

@available(*, unavailable) extension ServerStats: Sendable {}
