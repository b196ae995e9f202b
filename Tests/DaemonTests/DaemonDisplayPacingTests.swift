import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// Display pacing against the real daemon (docs/protocol.md, "Display pacing"): the daemon's
/// clock is CLOCK_MONOTONIC, every paced frame shows a vblank of the subscriber's display
/// (exact arithmetic: `start` + `t` on the vblank grid within 0.1 ms), `display` retimes a
/// running stream, `presented` is checked, `frame` pulls, and bad timings are refused while
/// another stream goes on.
@Suite struct DaemonDisplayPacingTests {
  /// How far `instant` is from the nearest vblank of `vblank` + k × `period`.
  private func offGrid(_ instant: Double, vblank: Double, period: Double) -> Double {
    let periods = (instant - vblank) / period
    return abs(periods - periods.rounded()) * period
  }

  @Test func pacedFramesShowTheDisplaysVblanksAndTheTimingCanChange() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let now = try client.request(["op": "clock"]).object.double("now")
    let begin = try client.request([
      "op": "begin", "context": .object(DaemonScenes.present()), "animator": "crossfade",
      "duration": 1.2, "session": "paced",
    ]).object
    let start = try begin.double("start")
    #expect(abs(start - now) < 5)
    let period = 1.0 / 144
    let vblank = now + 0.000_9
    let subscribed = try client.request([
      "op": "subscribe", "session": "paced",
      "display": ["period": .number(period), "vblank": .number(vblank)],
    ]).object
    let subscription = try subscribed.int("subscription")
    #expect(try subscribed.object("display").double("lead") == 0.004)
    var frames: [FrameEvent] = []
    while frames.count < 40 {
      if case .frame(let frame) = try client.event() { frames.append(frame) }
    }
    for frame in frames {
      #expect(offGrid(start + frame.t, vblank: vblank, period: period) < 0.000_1, "\(frame.t)")
    }
    // A report of a frame sent is taken once; one never sent is refused.
    let reported = try #require(frames.last)
    let report: [String: JSONValue] = [
      "op": "presented", "subscription": .number(Double(subscription)), "session": "paced",
      "seq": .number(Double(reported.seq)), "time": .number(start + reported.t),
    ]
    #expect(try client.errorCode(report) == nil)
    #expect(try client.errorCode(report) == "bad_request")
    var never = report
    never["seq"] = .number(Double(reported.seq + 10_000))
    #expect(try client.errorCode(never) == "bad_request")
    // A mode switch to 60 Hz of another phase: the frames after it show the new vblanks.
    let newVblank = now + 0.003_3
    #expect(
      try client.errorCode([
        "op": "display", "subscription": .number(Double(subscription)),
        "period": .number(1.0 / 60), "vblank": .number(newVblank),
      ]) == nil)
    let (after, finished) = try client.framesUntilComplete(session: "paced")
    #expect(finished)
    let paced = after.filter { $0.progress < 1 }.drop { frame in
      offGrid(start + frame.t, vblank: vblank, period: period) < 0.000_1
    }
    #expect(paced.count >= 5)
    for frame in paced {
      #expect(offGrid(start + frame.t, vblank: newVblank, period: 1.0 / 60) < 0.000_1)
    }
  }

  @Test func aFrameIsPulledAtAnInstantAndBadTimingsAreRefused() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let watcher = try daemon.client()
    let begin = try client.request([
      "op": "begin", "context": .object(DaemonScenes.present()), "animator": "crossfade",
      "duration": 30, "session": "pulled",
    ]).object
    let start = try begin.double("start")
    _ = try watcher.subscribe(session: "pulled", fps: 30)
    let pulled = try client.request(["op": "frame", "session": "pulled", "at": .number(start + 15)])
      .object.object("frame")
    #expect(try pulled.double("t") == 15)
    #expect(try pulled.double("progress") == 0.5)
    #expect(try pulled.int("seq") == 0)
    let now = try client.request(["op": "clock"]).object.double("now")
    let refused: [[String: JSONValue]] = [
      ["period": 0.001, "vblank": .number(now)],
      ["period": 1.5, "vblank": .number(now)],
      ["period": 0.01, "vblank": .number(now + 4_000)],
      ["period": 0.01, "vblank": .number(now - 4_000)],
      ["period": 0.01, "vblank": .number(now), "lead": 0.5],
    ]
    for display in refused {
      #expect(
        try client.errorCode(["op": "subscribe", "session": "pulled", "display": .object(display)])
          == "bad_request", "\(display)")
    }
    #expect(
      try client.errorCode(["op": "frame", "session": "pulled", "at": .number(now + 4_000)])
        == "bad_request")
    // The watcher's stream went on throughout.
    var seen = 0
    while seen < 3 {
      if case .frame = try watcher.event() { seen += 1 }
    }
  }
}
