import Foundation
import Testing
import TransitionClient
import TransitionJSON
import TransitionKit

@testable import IntegrationSupport

/// Interruption of a spring-driven session on a real daemon (docs/animators.md,
/// "Interruption"): a data animator whose present slides the detail screen up on a spring
/// and whose dismiss slides it down on another. A dismiss that
/// interrupts a present keeps the issue's limits, and its frames are the dismiss's spring
/// started from the presented place with the presented velocity, settling on its target.
@Suite(.serialized) struct DaemonSpringInterruptionTests {
  /// The present's spring and the dismiss's (each its track's curve).
  static let presentSpring = (duration: 0.5, bounce: 0.2)
  static let dismissSpring = (duration: 0.45, bounce: 0.3)
  static let duration = 0.6
  /// The dismiss plays over this many seconds (its `begin`'s `duration`): long enough that it
  /// is still running when its virtual reading subscribes, however loaded the machine.
  static let dismissDuration = 3.0
  static let height = 844.0

  static let file = """
    {"operations": {
      "present": {"duration": \(duration), "rules": [
        {"select": {"screen": "from"}},
        {"select": {"screen": "to"}, "tracks": [{"property": "translation.y",
          "from": "container.height", "to": 0,
          "curve": {"spring": {"duration": \(presentSpring.duration), "bounce": \(presentSpring.bounce)}}}]}]},
      "dismiss": {"duration": \(duration), "rules": [
        {"select": {"screen": "to"}},
        {"select": {"screen": "from"}, "tracks": [{"property": "translation.y",
          "from": 0, "to": "container.height",
          "curve": {"spring": {"duration": \(dismissSpring.duration), "bounce": \(dismissSpring.bounce)}}}]}]}}}
    """

  /// The detail screen's top edge in a frame event.
  static func top(_ frame: FrameEvent) throws -> Double {
    let layer = try #require(DaemonInterruptionTests.shownLayers(frame)["detail"])
    return try DaemonInterruptionTests.corners(layer)[0].y
  }

  static func startDaemon() throws -> DaemonProcess {
    let (daemon, animators) = try DaemonDataAnimatorTests.start()
    try DaemonHarness.writeAtomically(file, to: animators + "/springy.json")
    let control = try daemon.client()
    defer { control.close() }
    let listed = DaemonHarness.waitUntil {
      DaemonDataAnimatorTests.names(control)?.contains("springy") == true
    }
    try #require(listed, "\(daemon.log)")
    let error = try DaemonDataAnimatorTests.listing(control, "springy")?["error"]
    #expect(error == nil, "\(error?.stringValue ?? "")")
    return daemon
  }

  /// The handover at several instants keeps the issue's limits: no corner jumps more than
  /// 0.5 pt, no velocity changes more than 10 % (or 20 pt/s).
  @Test func aSpringHandsOverWithoutAJumpInPositionOrVelocity() throws {
    let daemon = try Self.startDaemon()
    let control = try daemon.client()
    let watcher = try DaemonInterruptionTests.Watcher(try daemon.client())
    let context = DaemonScenes.present()
    #expect(
      try control.rawReply([
        "op": "begin", "context": .object(context), "animator": "springy",
        "session": "reference",
      ]).errorCode == nil)
    let reference = try DaemonInterruptionTests.virtualFrames(
      of: "reference", daemon: daemon, count: nil)
    let plainReverse = try DaemonInterruptionTests.plainStart(
      of: DaemonInterruptionTests.reverse(context), animator: "springy", name: "springy",
      daemon: daemon, control: control)
    var round = 0
    for instant in [0.1, 0.25, 0.4, 0.55, 0.7] {
      var measured: DaemonInterruptionTests.Measure?
      for _ in 0..<5 where measured == nil {
        round += 1
        measured = try DaemonInterruptionTests.measure(
          scene: "springy", context: context, animator: "springy", instant: instant,
          held: false, reference: reference, plainReverse: plainReverse, daemon: daemon,
          control: control, watcher: watcher, round: round)
      }
      let measure = try #require(measured, "at \(instant): the session kept ending first")
      #expect(measure.jump <= DaemonInterruptionTests.largestJump, "\(measure)")
      #expect(measure.velocityRatio <= 1, "\(measure)")
      print(measure)
      watcher.frames = [:]
      watcher.completes = [:]
    }
  }

  /// Plays the present as `old` from `instant` on and lets the dismiss `new` interrupt it;
  /// false (and `new` ended) when the present ended first.
  static func interrupt(
    _ old: String, by new: String, at instant: Double, context: [String: JSONValue],
    control: DaemonClient, watcher: DaemonInterruptionTests.Watcher
  ) throws -> Bool {
    for request: [String: JSONValue] in [
      ["op": "begin", "context": .object(context), "animator": "springy", "session": .string(old)],
      ["op": "pause", "session": .string(old)],
      ["op": "seek", "session": .string(old), "progress": .number(instant)],
      ["op": "resume", "session": .string(old)],
    ] {
      let reply = try control.rawReply(request)
      #expect(reply.errorCode == nil, "\(reply.fields)")
    }
    let reply = try control.rawReply([
      "op": "begin", "context": .object(DaemonInterruptionTests.reverse(context)),
      "animator": "springy", "session": .string(new), "interrupts": .string(old),
      "duration": .number(dismissDuration),
    ])
    if reply.errorCode == "unknown_session" { return false }
    #expect(reply.errorCode == nil, "\(reply.fields)")
    try watcher.read { watcher.completes[old] != nil }
    guard watcher.completes[old]?.interruptedBy == new else {
      _ = try control.rawReply(["op": "end", "session": .string(new)])
      try watcher.read { watcher.completes[new] != nil }
      watcher.frames = [:]
      watcher.completes = [:]
      return false
    }
    return true
  }

  /// The dismiss's frames after the handover are its spring started from where the present
  /// showed the detail screen, with the velocity it had there as the spring's own initial
  /// velocity: the spring's dynamics (its overshoot past the bottom edge included), not a
  /// blend towards the dismiss's own motion; they end on the target.
  @Test func theSpringTakesTheHandedVelocityAsItsOwn() throws {
    let daemon = try Self.startDaemon()
    let control = try daemon.client()
    let watcher = try DaemonInterruptionTests.Watcher(try daemon.client())
    let context = DaemonScenes.present()
    let present = try Spring(
      duration: Self.presentSpring.duration, bounce: Self.presentSpring.bounce)
    let dismiss = try Spring(
      duration: Self.dismissSpring.duration, bounce: Self.dismissSpring.bounce)
    var round = 0
    for instant in [0.12, 0.3, 0.5] {
      var interrupted = false
      var old = ""
      var new = ""
      // On a loaded machine the present may end before the dismiss arrives, or while its
      // animator works: the round is played again.
      for _ in 0..<5 where !interrupted {
        round += 1
        (old, new) = ("old-\(round)", "new-\(round)")
        interrupted = try Self.interrupt(
          old, by: new, at: instant, context: context, control: control, watcher: watcher)
      }
      try #require(interrupted, "at \(instant): the present kept ending first")
      let shown = try DaemonInterruptionTests.virtualFrames(of: new, daemon: daemon, count: nil)
      let last = try #require(watcher.frames[old]?.last)
      // The present at the instant, from its spring: its top edge and velocity.
      let presentRate = present.settlingDuration / Self.duration
      let tau = last.progress * present.settlingDuration
      let presented = Self.height * (1 - present.value(at: tau))
      let velocity = -Self.height * present.velocity(at: tau) * presentRate
      let first = try #require(shown.first)
      #expect(abs(try Self.top(first) - presented) < 0.01, "at \(last.progress)")
      // Right after the handover the dismiss moves at the handed velocity.
      let motion = try #require(
        try DaemonInterruptionTests.cornerMotion("detail", shown, at: 0))
      let change = abs(motion.velocities[0].y - velocity)
      #expect(
        change
          <= max(
            DaemonInterruptionTests.velocityShare * abs(velocity), DaemonInterruptionTests.slowSpeed
          ),
        "\(velocity) pt/s handed, \(motion.velocities[0].y) pt/s shown")
      // The dismiss's spring retargeted: from there to the bottom edge, started at that
      // velocity in its own travel per second.
      let rate = dismiss.settlingDuration / Self.dismissDuration
      var retargeted = dismiss
      retargeted.initialVelocity = velocity / ((Self.height - presented) * rate)
      // What the dismiss's own spring jumps by where its curve ends on the target (its
      // settling threshold of the travel), what the free motion still holds there, and frame
      // rounding.
      let allowance =
        Spring.settlingThreshold * Self.height + 0.002 * (abs(presented) + abs(velocity) / rate)
        + 0.1
      var worst = 0.0
      var overshoot = -Double.infinity
      for frame in shown {
        let expected =
          presented + (Self.height - presented) * retargeted.value(at: frame.t * rate)
        let top = try Self.top(frame)
        worst = max(worst, abs(top - expected))
        overshoot = max(overshoot, top - Self.height)
      }
      #expect(worst <= allowance, "at \(last.progress): \(worst) pt off the spring")
      #expect(overshoot > 1, "the dismiss's spring overshoots its target")
      #expect(try Self.top(try #require(shown.last)) == Self.height)
      print("springy at \(last.progress): \(worst) pt off the retargeted spring")
      _ = try control.rawReply(["op": "end", "session": .string(new)])
      try watcher.read { watcher.completes[new] != nil }
      watcher.frames = [:]
      watcher.completes = [:]
    }
  }
}
