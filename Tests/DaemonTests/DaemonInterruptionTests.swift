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
  /// the reverse interrupt it as session `new`, and measures the handover.
  static func measure(
    scene name: String, context: [String: JSONValue], animator: String?, instant: Double,
    held: Bool, control: DaemonClient, watcher: Watcher, round: Int
  ) throws -> Measure {
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
      // Three frames of the motion from the instant on, for the velocity.
      try watcher.read {
        (watcher.frames[old]?.filter { $0.progress > instant + 1e-9 }.count ?? 0) >= 3
      }
    }
    var interrupting: [String: JSONValue] = [
      "op": "begin", "context": .object(reverse(context)), "session": .string(new),
      "interrupts": .string(old),
    ]
    if let animator { interrupting["animator"] = .string(animator) }
    let reply = try control.rawReply(interrupting)
    #expect(reply.errorCode == nil, "\(name): \(reply.fields)")
    try watcher.read {
      watcher.completes[old] != nil && (watcher.frames[new]?.count ?? 0) >= 4
    }
    let complete = try #require(watcher.completes[old])
    #expect(complete.interruptedBy == new && !complete.finished, "\(complete.line)")
    _ = try control.rawReply(["op": "end", "session": .string(new)])
    try watcher.read { watcher.completes[new] != nil }

    var result = Measure(scene: name, instant: instant, held: held)
    let oldFrames = try #require(watcher.frames[old])
    let newFrames = try #require(watcher.frames[new])
    let last = try #require(oldFrames.last)
    let first = try #require(newFrames.first)
    #expect(first.t < 0.05, "the first frame of \(new) is late: \(first.t) s")
    // Old frames for the velocity: the last, and two before it on the same motion, at least a
    // millisecond apart (numbers on the wire are rounded).
    var before: [FrameEvent] = [last]
    for frame in oldFrames.dropLast().reversed() where before.count < 3 {
      guard held || frame.progress > instant + 1e-9 else { break }
      if before.last!.t - frame.t >= 1e-3 { before.append(frame) }
    }
    let after = Array(newFrames.prefix(3))
    let oldLayers = shownLayers(last)
    for id in shownLayers(first).keys {
      guard let previous = oldLayers[id] else { continue }
      let oldVelocity =
        held
        ? [Point](repeating: .zero, count: 4) : try cornerMotion(id, before, at: last.t)?.velocities
      // The new session's first frame comes a fraction of a millisecond after the handover:
      // its motion is taken back to the instant.
      guard let oldVelocity, let new = try cornerMotion(id, after, at: 0) else { continue }
      let newVelocity = new.velocities
      for (a, b) in zip(try corners(previous), new.corners) {
        let jump = ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        if jump > result.jump { (result.jump, result.jumpLayer) = (jump, id) }
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

  @Test func everySceneHandsOverWithoutAJumpInPositionOrVelocity() throws {
    let daemon = try DaemonProcess()
    let control = try daemon.client()
    let watcher = try Watcher(try daemon.client())
    var round = 0
    var worst: [Measure] = []
    for name in TransitionctlProducts.sceneNames {
      let scene = try TransitionctlScene(named: name)
      var sceneWorst: Measure?
      for held in [false, true] {
        for instant in Self.instants {
          round += 1
          let measure = try Self.measure(
            scene: name, context: scene.context, animator: scene.animator, instant: instant,
            held: held, control: control, watcher: watcher, round: round)
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
    for (index, scene) in [push, pop, push].enumerated() {
      var begin: [String: JSONValue] = [
        "op": "begin", "context": .object(scene.context), "session": .string("chain-\(index)"),
        "animator": "album-flip",
      ]
      if let previous { begin["interrupts"] = .string(previous) }
      let reply = try control.rawReply(begin)
      #expect(reply.errorCode == nil, "\(reply.fields)")
      try watcher.read { (watcher.frames["chain-\(index)"]?.count ?? 0) >= 8 }
      previous = "chain-\(index)"
    }
    try watcher.read { watcher.completes["chain-2"] != nil }
    for index in 0..<2 {
      let complete = try #require(watcher.completes["chain-\(index)"])
      #expect(complete.interruptedBy == "chain-\(index + 1)", "\(complete.line)")
      let last = try #require(watcher.frames["chain-\(index)"]?.last)
      let first = try #require(watcher.frames["chain-\(index + 1)"]?.first)
      let lastLayers = Self.shownLayers(last)
      for (id, layer) in Self.shownLayers(first) {
        guard let before = lastLayers[id] else { continue }
        for (a, b) in zip(try Self.corners(before), try Self.corners(layer)) {
          #expect(abs(a.x - b.x) <= Self.largestJump && abs(a.y - b.y) <= Self.largestJump, "\(id)")
        }
      }
    }
    #expect(watcher.completes["chain-2"]?.finished == true)
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
