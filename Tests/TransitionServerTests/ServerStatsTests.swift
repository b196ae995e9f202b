import Testing
import TransitionKit

@testable import TransitionServer

/// The `stats` object: every counter in its documented place, uptime in milliseconds.
@Suite struct ServerStatsTests {
  @Test func freshCountersAreZero() {
    let stats = ServerStats(startTime: 10)
    let json = stats.json(now: 10, activeSessions: 0, subscriptions: 0, scheduledTimers: 0)
    #expect(json.objectValue?["uptime"] == .number(0))
    #expect(
      json.objectValue?["frames"]
        == .object(["sent": .number(0), "rendered": .number(0), "coalesced": .number(0)]))
    #expect(json.objectValue?["animators"] == .object([:]))
  }

  @Test func everyCounterIsReported() {
    let stats = ServerStats(startTime: 100)
    stats.connectionsCurrent = 2
    stats.connectionsTotal = 7
    stats.sessionsCompleted = 3
    stats.sessionsCancelled = 1
    stats.framesSent = 120
    stats.framesRendered = 70
    stats.framesCoalesced = 4
    stats.bytesSent = 5_000
    stats.bytesReceived = 300
    stats.slowSubscribersDisconnected = 1
    stats.ticksRendered = 600
    stats.ticksLate = 2
    stats.framesDeferred = 9
    stats.timelinesCompiled = 11
    stats.timelinesShared = 12
    stats.sessionsByAnimator = ["album-flip": 3, "default-slide": 1]
    let json = stats.json(now: 101.23456, activeSessions: 5, subscriptions: 6, scheduledTimers: 8)
    #expect(
      json
        == .object([
          "uptime": .number(1.235),
          "connections": .object(["current": .number(2), "total": .number(7)]),
          "sessions": .object([
            "active": .number(5), "completed": .number(3), "cancelled": .number(1),
          ]),
          "subscriptions": .number(6),
          "frames": .object([
            "sent": .number(120), "rendered": .number(70), "coalesced": .number(4),
          ]),
          "bytes": .object(["sent": .number(5_000), "received": .number(300)]),
          "ticks": .object(["rendered": .number(600), "late": .number(2), "deferred": .number(9)]),
          "timelines": .object(["compiled": .number(11), "shared": .number(12)]),
          "timers": .object(["scheduled": .number(8)]),
          "slowDisconnects": .number(1),
          "animators": .object(["album-flip": .number(3), "default-slide": .number(1)]),
        ]))
  }
}
