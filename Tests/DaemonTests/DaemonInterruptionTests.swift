import Foundation
import Testing
import TransitionClient
import TransitionJSON
import TransitionKit

@testable import IntegrationSupport

/// Interruption on a real daemon (docs/protocol.md, "Interruption"): every example scene is
/// interrupted by its reverse (push by pop, present by dismiss, and back) at ten instants,
/// running and held by a drag; what a `*` subscriber at 240 fps sees must not jump, in position
/// or in velocity, across the handover.
@Suite(.serialized) struct DaemonInterruptionTests {
  /// The ten instants, as linear progress of the interrupted session.
  static let instants = (0..<10).map { 0.08 + 0.09 * Double($0) }
  /// The largest jump of a corner between the last frame of the interrupted session and the
  /// first of the new one, in points.
  static let largestJump = 0.5
  /// The largest change of a corner's velocity across the handover: this share of its speed,
  /// or this many points a second for a slow layer.
  static let velocityShare = 0.1
  static let slowSpeed = 20.0
  /// How much slower the plain reverse plays to measure its velocity at its start: slow enough
  /// that an eased start's velocity barely changes over three frames (progress steps of about
  /// 10⁻⁴), and no slower, since a frame rounds a coordinate of 100 pt or more to 5 × 10⁻⁵ pt
  /// (docs/protocol.md, "Numbers in frames") and a difference over one frame multiplies that
  /// by 240 × the slowdown: a thousandfold reads a shared picture's (in `morph-push`) velocity
  /// 30 pt/s off, a hundredfold keeps that error under 5 pt/s.
  static let slowdown = 100.0

  /// What one handover measured.
  struct Measure: CustomStringConvertible {
    var scene: String
    var instant: Double
    var held: Bool
    var jump = 0.0
    var jumpLayer = ""
    /// The worst velocity change over its allowance (≤ 1 passes).
    var velocityRatio = 0.0
    var velocityLayer = ""
    var velocityText = ""
    var description: String {
      "\(scene) at \(instant)\(held ? " (held)" : ""): jump \(jump) pt (\(jumpLayer)), "
        + "velocity \(velocityText) (\(velocityLayer))"
    }
  }

  /// The context that undoes `scene`'s: its screens swapped, its operation reversed.
  static func reverse(_ context: [String: JSONValue]) -> [String: JSONValue] {
    var reversed = context
    reversed["from"] = context["to"]
    reversed["to"] = context["from"]
    let opposite = ["push": "pop", "pop": "push", "present": "dismiss", "dismiss": "present"]
    if let operation = context["operation"]?.stringValue, let back = opposite[operation] {
      reversed["operation"] = .string(back)
    }
    return reversed
  }

  /// The four corners of a frame event's layer, as drawn.
  static func corners(_ layer: [String: JSONValue]) throws -> [Point] {
    let field = JSONField(.object(layer), path: "layer")
    var state = LayerState(
      id: try field.required("id").string(), frame: try field.required("frame").rect())
    if let anchor = try field.optional("anchor") { state.anchor = try anchor.point() }
    if let transform = try field.optional("transform") {
      state.transform = try transform.transform()
    }
    let box = state.frame
    return [
      Point(x: box.minX, y: box.minY), Point(x: box.maxX, y: box.minY),
      Point(x: box.maxX, y: box.maxY), Point(x: box.minX, y: box.maxY),
    ].map(state.project)
  }

  /// The layers of `frame` that are shown, by id.
  static func shownLayers(_ frame: FrameEvent) -> [String: [String: JSONValue]] {
    var layers: [String: [String: JSONValue]] = [:]
    for layer in frame.layers where layer["hidden"] != .bool(true) {
      if let id = layer["id"]?.stringValue { layers[id] = layer }
    }
    return layers
  }

  /// The corners of layer `id` at time `t`, and their velocities, on the parabola through the
  /// first three frames' corners (frames in any order of time): exact for motion of constant
  /// acceleration, so the handover is measured at its instant, not a frame later.
  static func cornerMotion(_ id: String, _ frames: [FrameEvent], at t: Double) throws -> (
    corners: [Point], velocities: [Point]
  )? {
    guard frames.count >= 3 else { return nil }
    let x = frames.prefix(3).map(\.t)
    var corners: [[Point]] = []
    for frame in frames.prefix(3) {
      guard let layer = shownLayers(frame)[id] else { return nil }
      corners.append(try Self.corners(layer))
    }
    // Lagrange's basis on the three times, and its derivative, at t.
    let denominators = [
      (x[0] - x[1]) * (x[0] - x[2]), (x[1] - x[0]) * (x[1] - x[2]),
      (x[2] - x[0]) * (x[2] - x[1]),
    ]
    let others = [(x[1], x[2]), (x[0], x[2]), (x[0], x[1])]
    let basis = (0..<3).map { (t - others[$0].0) * (t - others[$0].1) / denominators[$0] }
    let slopes = (0..<3).map { (2 * t - others[$0].0 - others[$0].1) / denominators[$0] }
    func combine(_ weights: [Double], _ corner: Int) -> Point {
      Point(
        x: (0..<3).reduce(0) { $0 + weights[$1] * corners[$1][corner].x },
        y: (0..<3).reduce(0) { $0 + weights[$1] * corners[$1][corner].y })
    }
    return ((0..<4).map { combine(basis, $0) }, (0..<4).map { combine(slopes, $0) })
  }

  /// The first frames of a plain (not interrupting) session of a context on the virtual clock,
  /// at its own duration and ``slowdown`` times slower.
  struct PlainStart {
    var frames: [FrameEvent]
    var slowed: [FrameEvent]

    /// The corners' velocities of layer `id` at t = 0, from the slowed frames.
    func velocities(of id: String) throws -> [Point]? {
      try DaemonInterruptionTests.cornerMotion(id, slowed, at: 0)?.velocities.map {
        Point(
          x: $0.x * DaemonInterruptionTests.slowdown, y: $0.y * DaemonInterruptionTests.slowdown)
      }
    }
  }

  static func plainStart(
    of context: [String: JSONValue], animator: String?, name: String, daemon: DaemonProcess,
    control: DaemonClient
  ) throws -> PlainStart {
    var readings: [[FrameEvent]] = []
    for slowdown in [1.0, Self.slowdown] {
      let session = "plain-\(name)-\(Int(slowdown))"
      var begin: [String: JSONValue] = [
        "op": "begin", "context": .object(context), "session": .string(session),
      ]
      if let animator { begin["animator"] = .string(animator) }
      let reply = try control.rawReply(begin)
      let duration = try #require(reply.fields["duration"]?.numberValue, "\(reply.fields)")
      if slowdown != 1 {
        _ = try control.rawReply(["op": "end", "session": .string(session)])
        begin["duration"] = .number(duration * slowdown)
        begin["session"] = .string(session + "-slow")
        #expect(try control.rawReply(begin).errorCode == nil)
        readings.append(try virtualFrames(of: session + "-slow", daemon: daemon, count: 4))
        _ = try control.rawReply(["op": "end", "session": .string(session + "-slow")])
      } else {
        readings.append(try virtualFrames(of: session, daemon: daemon, count: 4))
        _ = try control.rawReply(["op": "end", "session": .string(session)])
      }
    }
    return PlainStart(frames: readings[0], slowed: readings[1])
  }

  /// The slope at t = 0 of what the handover adds to layer `id`'s corners: the cubic through
  /// the differences between the `shown` frames and the `plain` ones at the same times.
  static func offsetSlope(_ id: String, shown: [FrameEvent], plain: [FrameEvent]) throws
    -> [Point]?
  {
    guard shown.count >= 4, plain.count >= 4 else { return nil }
    var differences: [[Point]] = []
    for (a, b) in zip(shown.prefix(4), plain.prefix(4)) {
      guard a.t == b.t, let s = shownLayers(a)[id], let p = shownLayers(b)[id] else {
        return nil
      }
      differences.append(
        zip(try corners(s), try corners(p)).map { Point(x: $0.x - $1.x, y: $0.y - $1.y) })
    }
    let x = shown.prefix(4).map(\.t)
    // The derivative at 0 of Lagrange's cubic through the four differences.
    let weights = (0..<4).map { i -> Double in
      let others = (0..<4).filter { $0 != i }
      let denominator = others.reduce(1.0) { $0 * (x[i] - x[$1]) }
      var slope = 0.0
      for skipped in others {
        slope += others.filter { $0 != skipped }.reduce(1.0) { $0 * (0 - x[$1]) }
      }
      return slope / denominator
    }
    return (0..<4).map { corner in
      Point(
        x: (0..<4).reduce(0) { $0 + weights[$1] * differences[$1][corner].x },
        y: (0..<4).reduce(0) { $0 + weights[$1] * differences[$1][corner].y })
    }
  }

  /// Whether the corners of layer `id` in the fourth of `frames` lie on the parabola through
  /// the first three (within 0.05 pt): its motion has no corner of its own there.
  static func isSmooth(_ id: String, _ frames: [FrameEvent]) throws -> Bool {
    guard frames.count >= 4, let layer = shownLayers(frames[3])[id],
      let motion = try cornerMotion(id, frames, at: frames[3].t)
    else { return false }
    return zip(motion.corners, try corners(layer)).allSatisfy {
      abs($0.x - $1.x) < 0.05 && abs($0.y - $1.y) < 0.05
    }
  }

  /// Collects frames and `complete` events of every session a `*` subscriber receives.
  final class Watcher {
    let client: DaemonClient
    var frames: [String: [FrameEvent]] = [:]
    var completes: [String: CompleteEvent] = [:]

    init(_ client: DaemonClient) throws {
      self.client = client
      _ = try client.subscribe(session: "*", fps: 240)
    }

    /// Reads events until `condition` holds.
    func read(until condition: () -> Bool) throws {
      while !condition() {
        switch try client.nextEvent(timeout: .seconds(20)) {
        case .frame(let frame): frames[frame.session, default: []].append(frame)
        case .complete(let complete): completes[complete.session] = complete
        default: break
        }
      }
    }
  }

  /// Plays `scene` as session `old`, brings it to `instant` (running, or held by a drag), lets
  /// the reverse interrupt it as session `new`, and measures the handover; nil when the
  /// session ended before the interruption arrived.
  static func measure(
    scene name: String, context: [String: JSONValue], animator: String?, instant: Double,
    held: Bool, reference: [FrameEvent], plainReverse: PlainStart, daemon: DaemonProcess,
    control: DaemonClient,
    watcher: Watcher, round: Int
  ) throws -> Measure? {
    let old = "old-\(round)"
    let new = "new-\(round)"
    var begin: [String: JSONValue] = [
      "op": "begin", "context": .object(context), "session": .string(old),
    ]
    if let animator { begin["animator"] = .string(animator) }
    if held { begin["interactive"] = true }
    let began = try control.rawReply(begin)
    #expect(began.errorCode == nil, "\(name): \(began.fields)")
    if held {
      let updated = try control.rawReply([
        "op": "update", "session": .string(old), "progress": .number(instant),
      ])
      #expect(updated.errorCode == nil, "\(updated.fields)")
      try watcher.read {
        watcher.frames[old]?.contains { abs($0.progress - instant) < 1e-9 } == true
      }
    } else {
      for request: [String: JSONValue] in [
        ["op": "pause", "session": .string(old)],
        ["op": "seek", "session": .string(old), "progress": .number(instant)],
        ["op": "resume", "session": .string(old)],
      ] {
        let reply = try control.rawReply(request)
        #expect(reply.errorCode == nil, "\(name): \(reply.fields)")
      }
    }
    var interrupting: [String: JSONValue] = [
      "op": "begin", "context": .object(reverse(context)), "session": .string(new),
      "interrupts": .string(old),
    ]
    if let animator { interrupting["animator"] = .string(animator) }
    let reply = try control.rawReply(interrupting)
    // On a loaded machine a short session near its end may finish before the pop arrives:
    // the round is played again.
    if reply.errorCode == "unknown_session", !held { return nil }
    #expect(reply.errorCode == nil, "\(name): \(reply.fields)")
    try watcher.read { watcher.completes[old] != nil }
    let complete = try #require(watcher.completes[old])
    // Likewise when it finished while the new session's animator worked: the new session then
    // starts from its own beginning (docs/protocol.md, "Interruption"), and is played again.
    if !held, complete.finished, complete.interruptedBy == nil {
      _ = try control.rawReply(["op": "end", "session": .string(new)])
      try watcher.read { watcher.completes[new] != nil }
      return nil
    }
    #expect(complete.interruptedBy == new && !complete.finished, "\(complete.line)")
    // The new session's first frames on the virtual clock: at t = 0 (the handover instant)
    // and every 1/240 s after, none skipped however loaded the machine is.
    // On a loaded machine the new session, a short one, may also finish before its virtual
    // reading subscribes (an ended session is unknown to a late reader): played again.
    let after: [FrameEvent]
    do {
      after = try virtualFrames(of: new, daemon: daemon, count: 4)
    } catch let error as ClientError where error.daemonCode == "unknown_session" {
      try watcher.read { watcher.completes[new] != nil }
      return nil
    }
    _ = try control.rawReply(["op": "end", "session": .string(new)])
    try watcher.read { watcher.completes[new] != nil }
    let last = try #require(watcher.frames[old]?.last)
    // The interrupted motion as designed, densely (`reference`, the scene on the virtual
    // clock), up to the instant: the old session ran at constant speed from the seek on.
    let instantTime = last.progress * (reference.last?.t ?? 0)
    let before = Array(reference.filter { $0.t <= instantTime + 1e-9 }.suffix(4).reversed())
    try #require(held || before.count == 4, "\(name): too few frames before \(instantTime) s")

    var result = Measure(scene: name, instant: instant, held: held)
    let first = try #require(after.first)
    #expect(first.t == 0, "\(first.line)")
    let oldLayers = shownLayers(last)
    for id in shownLayers(first).keys {
      guard let previous = oldLayers[id] else { continue }
      for (a, b) in zip(try corners(previous), try corners(try #require(shownLayers(first)[id]))) {
        let jump = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        if jump > result.jump { (result.jump, result.jumpLayer) = (jump, id) }
      }
      var oldVelocity = [Point](repeating: .zero, count: 4)
      if !held {
        // A layer whose own motion turns a corner in the frames before the instant or between
        // the last of them and the instant (arriving, or starting late) has no velocity to
        // keep that three frames can tell.
        guard try isSmooth(id, before), let motion = try cornerMotion(id, before, at: instantTime),
          zip(motion.corners, try corners(previous)).allSatisfy({
            abs($0.x - $1.x) < 0.05 && abs($0.y - $1.y) < 0.05
          })
        else { continue }
        oldVelocity = motion.velocities
      }
      // The new session's velocity at t = 0: the reverse timeline's own (measured where its
      // motion is slowed ``slowdown`` times, since an eased start changes its velocity fast in the
      // first milliseconds), plus the slope of the offset the handover adds to it (what the
      // frames show minus the plain reverse, a smooth curve).
      guard let plainVelocity = try plainReverse.velocities(of: id),
        let offsetSlope = try offsetSlope(id, shown: after, plain: plainReverse.frames)
      else { continue }
      let newVelocity = zip(plainVelocity, offsetSlope).map {
        Point(x: $0.x + $1.x, y: $0.y + $1.y)
      }
      for (a, b) in zip(oldVelocity, newVelocity) {
        let speed = (a.x * a.x + a.y * a.y).squareRoot()
        let change = ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        let ratio = change / max(velocityShare * speed, slowSpeed)
        if ratio > result.velocityRatio {
          result.velocityRatio = ratio
          result.velocityLayer = id
          result.velocityText = "\(Int(speed)) → change \(Int(change)) pt/s"
        }
      }
    }
    return result
  }

  /// The first `count` frames of `session` on the virtual clock at 240 fps (all of them when
  /// nil), read on a connection of their own.
  static func virtualFrames(of session: String, daemon: DaemonProcess, count: Int?) throws
    -> [FrameEvent]
  {
    let client = try daemon.client()
    defer { client.close() }
    _ = try client.subscribe(session: session, fps: 240, clock: .virtual)
    var frames: [FrameEvent] = []
    while count.map({ frames.count < $0 }) ?? true {
      switch try client.nextEvent(timeout: .seconds(20)) {
      case .frame(let frame) where frame.session == session: frames.append(frame)
      case .complete(let complete) where complete.session == session: return frames
      default: break
      }
    }
    return frames
  }

  @Test func everySceneHandsOverWithoutAJumpInPositionOrVelocity() throws {
    let daemon = try DaemonProcess()
    let control = try daemon.client()
    let watcher = try Watcher(try daemon.client())
    var round = 0
    var worst: [Measure] = []
    for name in TransitionctlProducts.sceneNames {
      let scene = try TransitionctlScene(named: name)
      var sceneWorst: Measure?
      // The scene's motion as designed, every 1/240 s.
      var begin: [String: JSONValue] = [
        "op": "begin", "context": .object(scene.context), "session": .string("reference-\(name)"),
      ]
      if let animator = scene.animator { begin["animator"] = .string(animator) }
      #expect(try control.rawReply(begin).errorCode == nil)
      let reference = try Self.virtualFrames(of: "reference-\(name)", daemon: daemon, count: nil)
      _ = try control.rawReply(["op": "end", "session": .string("reference-\(name)")])
      let plainReverse = try Self.plainStart(
        of: Self.reverse(scene.context), animator: scene.animator, name: name, daemon: daemon,
        control: control)
      for held in [false, true] {
        for instant in Self.instants {
          var measured: Measure?
          for _ in 0..<5 where measured == nil {
            round += 1
            measured = try Self.measure(
              scene: name, context: scene.context, animator: scene.animator, instant: instant,
              held: held, reference: reference, plainReverse: plainReverse, daemon: daemon,
              control: control, watcher: watcher, round: round)
          }
          let measure = try #require(
            measured, "\(name) at \(instant): the session kept ending first")
          #expect(measure.jump <= Self.largestJump, "\(measure)")
          #expect(measure.velocityRatio <= 1, "\(measure)")
          if sceneWorst.map({ measure.velocityRatio > $0.velocityRatio }) ?? true {
            sceneWorst = measure
          }
          watcher.frames = [:]
          watcher.completes = [:]
        }
      }
      if let sceneWorst { worst.append(sceneWorst) }
    }
    print(worst.map(\.description).joined(separator: "\n"))
  }

  @Test func chainsOfInterruptionsHandOverEachTime() throws {
    let daemon = try DaemonProcess()
    let control = try daemon.client()
    let watcher = try Watcher(try daemon.client())
    let push = try TransitionctlScene(named: "album-flip-push")
    let pop = try TransitionctlScene(named: "album-flip-pop")
    // Push, pop, push within half a second, each interrupting the one before.
    var previous: String?
    var firstFrames: [FrameEvent] = []
    for (index, scene) in [push, pop, push].enumerated() {
      var begin: [String: JSONValue] = [
        "op": "begin", "context": .object(scene.context), "session": .string("chain-\(index)"),
        "animator": "album-flip",
      ]
      if let previous { begin["interrupts"] = .string(previous) }
      let reply = try control.rawReply(begin)
      #expect(reply.errorCode == nil, "\(reply.fields)")
      // Its frame at t = 0, the handover instant, from the virtual clock.
      firstFrames += try Self.virtualFrames(of: "chain-\(index)", daemon: daemon, count: 1)
      try watcher.read { (watcher.frames["chain-\(index)"]?.count ?? 0) >= 8 }
      previous = "chain-\(index)"
    }
    try watcher.read { watcher.completes["chain-2"] != nil }
    for index in 0..<2 {
      let complete = try #require(watcher.completes["chain-\(index)"])
      #expect(complete.interruptedBy == "chain-\(index + 1)", "\(complete.line)")
      let last = try #require(watcher.frames["chain-\(index)"]?.last)
      let first = firstFrames[index + 1]
      #expect(first.t == 0)
      let lastLayers = Self.shownLayers(last)
      for (id, layer) in Self.shownLayers(first) {
        guard let before = lastLayers[id] else { continue }
        for (a, b) in zip(try Self.corners(before), try Self.corners(layer)) {
          let jump = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
          #expect(jump <= Self.largestJump, "chain-\(index) → chain-\(index + 1): \(id)")
        }
      }
    }
    #expect(watcher.completes["chain-2"]?.finished == true)
  }

  /// The alpha of layer `id` in a frame event (1 when the frame leaves it out).
  static func alpha(of id: String, in frame: FrameEvent) -> Double? {
    guard let layer = shownLayers(frame)[id] else { return nil }
    return layer["alpha"]?.numberValue ?? 1
  }

  /// A data file's `handover` sets the time the offset takes to vanish: an interrupting
  /// session's frames differ from a plain session's before it and equal them after it; without
  /// one the default time holds. A value out of bounds is refused with its path.
  @Test func aDataFilesHandoverSetsTheTimeTheOffsetTakes() throws {
    let (daemon, animators) = try DaemonDataAnimatorTests.start()
    let files = [
      "quick": DaemonDataAnimatorTests.fade(duration: 1, extra: #", "handover": 0.1"#),
      "steady": DaemonDataAnimatorTests.fade(duration: 1),
      "endless": DaemonDataAnimatorTests.fade(duration: 1, extra: #", "handover": 20"#),
    ]
    for (name, text) in files {
      try DaemonHarness.writeAtomically(text, to: animators + "/\(name).json")
    }
    let control = try daemon.client()
    let watcher = try Watcher(try daemon.client())
    let listed = DaemonHarness.waitUntil {
      Set(DaemonDataAnimatorTests.names(control) ?? []).isSuperset(of: files.keys)
    }
    try #require(listed, "\(daemon.log)")
    let error = try DaemonDataAnimatorTests.listing(control, "endless")?["error"]?.stringValue
    #expect(error?.hasPrefix(animators + "/endless.json:") == true, "\(error ?? "")")
    #expect(
      error?.contains("/handover: must be in (0, 10] seconds, got 20") == true, "\(error ?? "")")
    #expect(
      try control.rawReply([
        "op": "begin", "animator": "endless", "context": .object(DaemonScenes.present()),
      ]).errorCode != nil)

    for (animator, handover) in [("quick", 0.1), ("steady", Handover.defaultDuration)] {
      // The old session held half way (the detail half faded in), the new one from its start.
      let old = "held-\(animator)"
      let new = "new-\(animator)"
      let plain = "plain-\(animator)"
      var begin: [String: JSONValue] = [
        "op": "begin", "animator": .string(animator), "context": .object(DaemonScenes.present()),
      ]
      begin["session"] = .string(old)
      begin["interactive"] = true
      #expect(try control.rawReply(begin).errorCode == nil)
      #expect(
        try control.rawReply(["op": "update", "session": .string(old), "progress": 0.5])
          .errorCode == nil)
      // The update has landed once a frame of it is shown.
      try watcher.read {
        watcher.frames[old]?.contains { abs($0.progress - 0.5) < 1e-9 } == true
      }
      begin["interactive"] = nil
      begin["session"] = .string(new)
      begin["interrupts"] = .string(old)
      #expect(try control.rawReply(begin).errorCode == nil)
      begin["session"] = .string(plain)
      begin["interrupts"] = nil
      #expect(try control.rawReply(begin).errorCode == nil)
      let shown = try Self.virtualFrames(of: new, daemon: daemon, count: 120)
      let plainFrames = try Self.virtualFrames(of: plain, daemon: daemon, count: 120)
      for session in [new, plain] {
        _ = try control.rawReply(["op": "end", "session": .string(session)])
      }
      var during = 0
      var after = 0
      for (a, b) in zip(shown, plainFrames) where a.t > 0 {
        #expect(a.t == b.t)
        let offset = try abs(
          #require(Self.alpha(of: "detail", in: a)) - #require(Self.alpha(of: "detail", in: b)))
        if a.t < handover - 1e-9 {
          during += 1
          #expect(offset > 1e-4, "\(animator) at \(a.t) s: no offset")
        } else if a.t > handover + 1e-9 {
          after += 1
          #expect(offset == 0, "\(animator) at \(a.t) s: an offset of \(offset)")
        }
      }
      #expect(during >= Int(handover * 240) - 2 && after > 0, "\(animator): \(during), \(after)")
    }
  }

  @Test func badInterruptionsAreRefused() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let scene = try TransitionctlScene(named: "default-slide-push")
    let code = try client.errorCode([
      "op": "begin", "context": .object(scene.context), "interrupts": "nothing",
    ])
    #expect(code == "unknown_session")
    let hello = try client.rawReply(["op": "hello"])
    #expect(hello.fields["features"]?.arrayValue?.contains("interruption") == true)
  }
}
