import FrameStreaming
import Testing
import TransitionJSON
import TransitionKit
import TransitionServerTesting
import TransitionWire

@testable import TransitionServer

/// Display-paced subscriptions on a fake clock (docs/protocol.md, "Display pacing"): each
/// frame's `t` is a vblank of the subscriber's display minus the session's start, sent the
/// lead before it; `display` retimes a running stream, `presented` locks the phase and the
/// lead, `frame` pulls one frame and `clock` tells the time. Exact arithmetic, no timing.
@Suite struct DisplayPacingTests {
  /// A frame as a subscriber sees it, with the fake clock's time when it was read.
  private struct Arrival {
    var seq: Int
    var t: Double
    var arrived: Double
  }

  /// The frames `peer` reads while the clock moves to `end`, read after every timer fired.
  private func arrivals(of peer: FakePeer, in harness: CoreHarness, until end: Double)
    -> [Arrival]
  {
    var arrivals: [Arrival] = []
    func read() {
      for frame in peer.readLines().frames {
        arrivals.append(
          Arrival(
            seq: Int(frame["seq"]?.numberValue ?? -1), t: frame["t"]?.numberValue ?? .nan,
            arrived: harness.clock.now))
      }
    }
    harness.clock.advance(to: end, afterEach: read)
    read()
    return arrivals
  }

  private func subscribeLine(_ session: String, period: Double, vblank: Double, lead: Double?)
    -> String
  {
    let leadMember = lead.map { ",\"lead\":\(JSONValue.format($0))" } ?? ""
    return
      #"{"op":"subscribe","session":"\#(session)","display":{"period":\#(JSONValue.format(period)),"vblank":\#(JSONValue.format(vblank))\#(leadMember)}}"#
  }

  @Test func everyFrameShowsAVblankAndLeavesTheLeadBeforeIt() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 1_000)
    let start = try #require(harness.core.sessions[id]).startTime
    harness.clock.advance(by: 0.0123)
    let period = 1.0 / 144
    let vblank = harness.clock.now + 0.003_1
    let lead = 0.002
    let reply = harness.reply(
      subscribeLine(id, period: period, vblank: vblank, lead: lead), from: peer)
    #expect(reply["ok"] == .bool(true), "\(reply)")
    #expect(reply["display"]?["lead"] == .number(lead))
    _ = peer.readLines()
    let timing = DisplayTiming(period: period, vblank: vblank, lead: lead)
    let frames = arrivals(of: peer, in: harness, until: harness.clock.now + 2)
    #expect(frames.count >= 280)
    var indexes: [Int] = []
    for frame in frames {
      let shown = start + frame.t
      let index = timing.index(atOrAfter: shown - period / 2)
      // Within 0.1 ms of the vblank (the frame's `t` has 7 significant digits).
      #expect(abs(shown - timing.vblank(index)) < 0.000_1, "frame \(frame.seq) is off its vblank")
      indexes.append(index)
    }
    // One frame a vblank: none repeated, none skipped.
    #expect(zip(indexes, indexes.dropFirst()).allSatisfy { $1 == $0 + 1 })
    // The paced ones (all but the first, sent at the subscription) leave the lead before
    // their vblank, or up to the coarsest wake grid before that, and after the vblank before.
    for frame in frames.dropFirst() {
      let early = start + frame.t - frame.arrived
      #expect(
        early >= lead - 1e-6 && early <= lead + DisplayWakeTime.coarsestGrid + 1e-6
          && early < period,
        "frame \(frame.seq) arrived \(early) s early")
    }
  }

  @Test func subscribersOfOneDisplayShareAStreamWhicheverVblankTheyName() throws {
    let harness = CoreHarness()
    let owner = harness.connect()
    let id = harness.beginCrossfade(from: owner, duration: 100)
    let peers = (0..<3).map { _ in harness.connect() }
    let period = 1.0 / 60
    for (index, peer) in peers.enumerated() {
      let vblank = harness.clock.now + 0.001 + Double(index) * period
      _ = harness.send(subscribeLine(id, period: period, vblank: vblank, lead: nil), from: peer)
    }
    let session = try #require(harness.core.sessions[id])
    #expect(session.streams.count == 1)
    harness.clock.advance(by: 0.5)
    let lines = peers.map { $0.readLines().frames.last }
    #expect(lines[0] != nil && lines[0] == lines[1] && lines[1] == lines[2])
  }

  @Test func theDisplayOpMovesTheStreamToTheNewTimingAndSeqCountsOn() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 1_000)
    let start = try #require(harness.core.sessions[id]).startTime
    let reply = harness.reply(
      subscribeLine(id, period: 1.0 / 60, vblank: harness.clock.now + 0.005, lead: 0.004),
      from: peer)
    let subscription = try #require(reply["subscription"]?.numberValue)
    let before = arrivals(of: peer, in: harness, until: harness.clock.now + 0.5)
    let vblank = harness.clock.now + 0.000_7
    let changed = harness.send(
      #"{"op":"display","subscription":\#(Int(subscription)),"period":\#(1.0 / 120),"vblank":\#(vblank)}"#,
      from: peer)
    #expect(changed.first?["ok"] == .bool(true), "\(changed)")
    let now = harness.clock.now
    let after = arrivals(of: peer, in: harness, until: harness.clock.now + 0.5)
    let sent =
      changed.frames.map {
        (seq: Int($0["seq"]?.numberValue ?? -1), t: $0["t"]?.numberValue ?? .nan)
      }
      + after.map { (seq: $0.seq, t: $0.t) }
    let last = try #require(before.last)
    // `seq` counts on from the old stream's.
    #expect(sent.map(\.seq) == Array((last.seq + 1)..<(last.seq + 1 + sent.count)))
    let timing = DisplayTiming(period: 1.0 / 120, vblank: vblank, lead: 0.004)
    let shown = sent.map { start + $0.t }
    // The next frame shows the first vblank of the new timing after now and after the frame
    // last sent; every one after it the next vblank.
    let lastShown = start + last.t
    // The old timing's last frame, sent a lead ahead, shows a vblank still to come; none of
    // the new timing's frames leaves before it, where it would replace that frame.
    #expect(lastShown > now)
    #expect(changed.frames.isEmpty)
    #expect(after.allSatisfy { $0.arrived >= lastShown })
    #expect(
      abs((shown.first ?? 0) - timing.vblank(atOrAfter: max(now, lastShown + 1.0 / 240)))
        < 0.000_1)
    for (a, b) in zip(shown, shown.dropFirst()) {
      #expect(abs(b - a - 1.0 / 120) < 0.000_1)
    }
  }

  @Test func presentedReportsLockThePhaseAndRaiseTheLeadAfterAMissedVblank() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 1_000)
    let start = try #require(harness.core.sessions[id]).startTime
    let period = 1.0 / 60
    let given = harness.clock.now + 0.005
    let reply = harness.reply(
      subscribeLine(id, period: period, vblank: given, lead: 0.004), from: peer)
    let subscription = Int(try #require(reply["subscription"]?.numberValue))
    _ = peer.readLines()
    // The display really shows 0.5 ms after the vblanks it was given.
    let real = DisplayTiming(period: period, vblank: given + 0.000_5, lead: 0)
    var reported = 0
    for _ in 0..<60 {
      for frame in arrivals(of: peer, in: harness, until: harness.clock.now + period) {
        let shown = start + frame.t
        // The tenth frame misses its vblank: shown a period later.
        let missed = reported == 10 ? period : 0
        let presented = real.vblank(atOrAfter: shown - period / 2) + missed
        let answer = harness.reply(
          #"{"op":"presented","subscription":\#(subscription),"session":"\#(id)","seq":\#(frame.seq),"time":\#(presented)}"#,
          from: peer)
        #expect(answer["ok"] == .bool(true), "\(answer)")
        reported += 1
        _ = peer.readLines()
      }
    }
    // Locked: the frames now show within 0.1 ms of the vblanks the display really shows.
    let tail = arrivals(of: peer, in: harness, until: harness.clock.now + 0.2)
    #expect(tail.count >= 10)
    for frame in tail {
      let shown = start + frame.t
      #expect(abs(shown - real.vblank(atOrAfter: shown - period / 2)) < 0.000_1)
    }
    let stats = harness.reply(#"{"op":"stats"}"#, from: peer)
    #expect(stats["stats"]?["display"]?["subscriptions"] == .number(1))
    let entry = try #require(stats["stats"]?["display"]?["streams"]?.arrayValue?.first)
    #expect(entry["late"] == .number(1))
    // Raised by one step after the miss; fewer than 120 calm reports since, so not back yet.
    #expect(abs((entry["lead"]?.numberValue ?? 0) - 0.005) < 1e-9)
    #expect(entry["presented"] == .number(Double(reported)))
  }

  @Test func presentedRefusesFramesNeverSentOrReportedTwiceAndOtherStreamsGoOn() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let other = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 1_000)
    let reply = harness.reply(
      subscribeLine(id, period: 1.0 / 60, vblank: harness.clock.now, lead: nil), from: peer)
    let subscription = Int(try #require(reply["subscription"]?.numberValue))
    _ = harness.send(#"{"op":"subscribe","session":"\#(id)","fps":30}"#, from: other)
    let frames = arrivals(of: peer, in: harness, until: harness.clock.now + 0.1)
    let frame = try #require(frames.last)
    func report(_ seq: Int, subscription: Int = subscription) -> JSONValue {
      harness.reply(
        #"{"op":"presented","subscription":\#(subscription),"session":"\#(id)","seq":\#(seq),"time":\#(harness.clock.now)}"#,
        from: peer)
    }
    #expect(report(frame.seq + 1000).errorCode == "bad_request")
    #expect(report(frame.seq)["ok"] == .bool(true))
    #expect(report(frame.seq).errorCode == "bad_request")
    #expect(report(frame.seq, subscription: 999).errorCode == "unknown_subscription")
    // A flood of reports of frames never sent: each refused, nothing learnt.
    for seq in 0..<500 { _ = report(frame.seq + 10 + seq) }
    let stats = harness.reply(#"{"op":"stats"}"#, from: peer)
    #expect(stats["stats"]?["display"]?["streams"]?.arrayValue?.first?["presented"] == .number(1))
    // The other subscriber's grid stream went on throughout.
    _ = other.readLines()
    harness.clock.advance(by: 0.1)
    #expect(other.readLines().frames.count >= 2)
    // A grid subscription takes no reports.
    _ = peer.readLines()
    let grid = harness.reply(#"{"op":"subscribe","session":"\#(id)","fps":60}"#, from: peer)
    let gridID = Int(try #require(grid["subscription"]?.numberValue))
    #expect(report(0, subscription: gridID).errorCode == "bad_request")
  }

  @Test func badDisplayTimingsAreRefusedNamingTheMember() {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 10)
    let now = harness.clock.now
    let refused: [(String, String)] = [
      (subscribeLine(id, period: 0.001, vblank: now, lead: nil), "display.period"),
      (subscribeLine(id, period: 2, vblank: now, lead: nil), "display.period"),
      (subscribeLine(id, period: 0.01, vblank: now + 7_200, lead: nil), "display.vblank"),
      (subscribeLine(id, period: 0.01, vblank: now - 7_200, lead: nil), "display.vblank"),
      (subscribeLine(id, period: 0.01, vblank: now, lead: 0.2), "display.lead"),
      (subscribeLine(id, period: 0.01, vblank: now, lead: -0.001), "display.lead"),
      (
        #"{"op":"subscribe","session":"\#(id)","clock":"virtual","display":{"period":0.01,"vblank":\#(now)}}"#,
        "virtual"
      ),
      (#"{"op":"subscribe","session":"\#(id)","display":{"period":0.01}}"#, "vblank"),
      (#"{"op":"display","subscription":1,"period":0.0001,"vblank":\#(now)}"#, "period"),
      (#"{"op":"frame","session":"\#(id)","at":\#(now + 7_200)}"#, "at"),
      (#"{"op":"frame","session":"\#(id)","at":\#(now),"encoding":"delta"}"#, "encoding"),
    ]
    for (line, named) in refused {
      let reply = harness.reply(line, from: peer)
      #expect(reply.errorCode == "bad_request", "\(line)")
      let message = reply["error"]?["message"]?.stringValue ?? ""
      #expect(message.contains(named), "\(message)")
    }
    #expect(harness.core.clientCount == 1)
  }

  @Test func frameReturnsTheSessionAtTheInstantAndClockTellsTheTime() throws {
    let harness = CoreHarness()
    let peer = harness.connect()
    let id = harness.beginCrossfade(from: peer, duration: 0.5)
    let start = try #require(harness.core.sessions[id]).startTime
    let clock = harness.reply(#"{"op":"clock"}"#, from: peer)
    #expect(clock["now"] == .number(harness.clock.now))
    let reply = harness.reply(
      #"{"op":"frame","id":7,"session":"\#(id)","at":\#(start + 0.25)}"#, from: peer)
    #expect(reply["ok"] == .bool(true))
    #expect(reply["id"] == .number(7))
    let frame = try #require(reply["frame"])
    #expect(frame["event"] == .string("frame"))
    #expect(frame["seq"] == .number(0))
    #expect(frame["t"] == .number(0.25))
    #expect(frame["progress"] == .number(0.5))
    #expect(frame["layers"]?.arrayValue?.last?["alpha"] == .number(0.5))
    let quad = harness.reply(
      #"{"op":"frame","session":"\#(id)","at":\#(start + 0.1),"geometry":"quad"}"#, from: peer)
    #expect(quad["frame"]?["layers"]?.arrayValue?.first?["quad"]?.arrayValue?.count == 8)
    #expect(
      harness.reply(#"{"op":"frame","session":"nope","at":\#(start)}"#, from: peer).errorCode
        == "unknown_session")
  }
}
