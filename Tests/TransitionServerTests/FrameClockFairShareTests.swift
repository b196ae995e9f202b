import Testing
import TransitionJSON
import TransitionServerTesting

@testable import FrameStreaming
@testable import TransitionServer

/// The frame clocks share render time by uid (docs/limits.md, "Render time by user"): a uid
/// streaming more than its share renders fewer of its deadlines, and the frames of a uid
/// within its share keep every deadline. Render time is the fake clock's: each read of it
/// moves it on, as work would.
@Suite struct FrameClockFairShareTests {
  /// Each read of the clock costs this much, so rendering takes time.
  static let secondsPerRead = 0.000_05
  static let heavySessions = 40

  /// The share of its 240 fps deadlines a heavy uid rendered in one second, and the 60 fps
  /// frames a light uid got meanwhile (nil: no light uid).
  private func run(withLightUser: Bool) throws -> (
    heavyTicks: Double, lightFrames: Int?, deferred: Int
  ) {
    let harness = CoreHarness()
    // Slices of ten reads' time: at 50 µs a read, a default slice (0.1 ms) would hold one
    // stream's render, and the slices' own reads, charged to no one, would outweigh it.
    harness.core.frameClocks.sliceSeconds = 10 * Self.secondsPerRead
    let heavy = harness.connect(uid: 1_000)
    for _ in 0..<Self.heavySessions {
      let id = harness.beginCrossfade(from: heavy, duration: 100)
      let reply = harness.reply(#"{"op":"subscribe","session":"\#(id)","fps":240}"#, from: heavy)
      #expect(reply["ok"] == .bool(true), "\(reply)")
    }
    var light: FakePeer?
    if withLightUser {
      let peer = harness.connect(uid: 2_000)
      let id = harness.beginCrossfade(from: peer, duration: 100)
      let reply = harness.reply(#"{"op":"subscribe","session":"\#(id)","fps":60}"#, from: peer)
      #expect(reply["ok"] == .bool(true), "\(reply)")
      light = peer
    }
    _ = heavy.readLines()
    _ = light?.readLines()
    harness.clock.secondsPerRead = Self.secondsPerRead
    let start = harness.clock.now
    var heavyFrames = 0
    var lightFrames = 0
    var step = 1
    while harness.clock.now < start + 1 {
      harness.clock.advance(to: start + Double(step) / 960)
      step += 1
      heavyFrames += heavy.readLines().frames.count
      lightFrames += light?.readLines().frames.count ?? 0
    }
    let heavyTicks = Double(heavyFrames) / Double(Self.heavySessions) / 240
    return (heavyTicks, withLightUser ? lightFrames : nil, harness.core.stats.framesDeferred)
  }

  @Test func aUIDAloneRendersEveryDeadline() throws {
    let alone = try run(withLightUser: false)
    #expect(alone.heavyTicks > 0.95, "\(alone)")
    #expect(alone.deferred == 0, "\(alone)")
  }

  @Test func aUIDOverItsShareRendersFewerDeadlinesAndTheOtherKeepsAll() throws {
    let shared = try run(withLightUser: true)
    // Unshared it spends about half the time rendering (40 × 240 × 50 µs); its share is a
    // quarter.
    #expect(shared.heavyTicks < 0.8, "\(shared)")
    #expect(shared.heavyTicks > 0.3, "\(shared)")
    #expect(shared.deferred > 0, "\(shared)")
    // The light uid's 60 fps stream showed every deadline of the second (±1 at the ends).
    let lightFrames = try #require(shared.lightFrames)
    #expect(lightFrames >= 59, "\(shared)")
  }

  @Test func aFrameRenderedOutsideATickIsChargedToItsUID() throws {
    let harness = CoreHarness()
    let first = harness.connect(uid: 1_000)
    let second = harness.connect(uid: 2_000)
    var subscriptions: [Int] = []
    for peer in [first, second] {
      let id = harness.beginCrossfade(from: peer, duration: 100)
      let reply = harness.reply(
        #"{"op":"subscribe","session":"\#(id)","fps":60,"encoding":"delta"}"#, from: peer)
      subscriptions.append(Int(try #require(reply["subscription"]?.numberValue)))
    }
    let shares = harness.core.frameClocks.shares
    #expect(shares.isSharing)
    let before = try #require(shares.balance(of: 1_000))
    let other = try #require(shares.balance(of: 2_000))
    // Rendering takes time from here on; `resync` renders the latest frame again at once.
    harness.clock.secondsPerRead = Self.secondsPerRead
    let lines = harness.send(
      #"{"op":"resync","subscription":\#(subscriptions[0])}"#, from: first)
    #expect(lines.frames.map { $0["key"] } == [.bool(true)])
    let after = try #require(shares.balance(of: 1_000))
    #expect(after < before)
    #expect(shares.balance(of: 2_000) == other)
  }
}
