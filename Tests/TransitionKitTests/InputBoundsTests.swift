import Testing
import TransitionJSON

@testable import TransitionKit

/// The bounds on what a client or a plugin may send (docs/limits.md, "Input bounds"): numbers
/// past them are refused naming the field, numbers at them evaluate to finite frames.
@Suite struct InputBoundsTests {
  private func context(frame: String, container: String = "[390,844]", extra: String = "")
    throws -> TransitionContext
  {
    try TransitionContext(
      json: try JSONValue(
        parsing: #"{"operation":"push","container":"# + container + extra
          + #","from":{"layers":[{"id":"a","frame":"# + frame + #"}]},"to":{}}"#))
  }

  @Test(arguments: [
    ("[2e154,0,10,10]", "context.from.layers[0].frame[0]"),
    ("[0,-1000000.5,10,10]", "context.from.layers[0].frame[1]"),
    ("[0,0,1e7,10]", "context.from.layers[0].frame[2]"),
    ("[0,0,10,1.0000001e6]", "context.from.layers[0].frame[3]"),
  ])
  func contextNumbersPastTheBoundsAreRefused(frame: String, field: String) {
    let error = caughtEngineError { try context(frame: frame) }
    #expect(error?.code == .outOfRange)
    #expect(error?.message.hasPrefix(field + " must be in") == true, "\(error?.message ?? "")")
  }

  @Test func containerAndDurationPastTheBoundsAreRefused() {
    let container = caughtEngineError { try context(frame: "[0,0,1,1]", container: "[1e300,1]") }
    #expect(container?.message.hasPrefix("context.container[0]") == true)
    for duration in ["1e300", "0", "-1", "1.5e9"] {
      let error = caughtEngineError {
        try context(frame: "[0,0,1,1]", extra: #","duration":"# + duration)
      }
      #expect(error?.message.hasPrefix("context.duration must be in (0, 1000000000]") == true)
    }
  }

  @Test func contextNumbersAtTheBoundsAreAccepted() throws {
    let edge = try context(
      frame: "[-1000000,1000000,1000000,5e-324]", container: "[-0.0,1000000]",
      extra: #","duration":1e9"#)
    #expect(edge.from.layers[0].frame.width == ContextBounds.maximumSize)
    #expect(edge.container.width == 0)
  }

  @Test func timelineValuesPastTheBoundsAreRefused() {
    let cases = [
      #"{"duration":1,"layers":[{"id":"a","frame":[1e300,0,1,1]}]}"#,
      #"{"duration":1,"layers":[{"id":"a","frame":[0,0,1,1],"z":1e16}]}"#,
      #"{"duration":1e300,"layers":[{"id":"a","frame":[0,0,1,1]}]}"#,
      #"{"duration":1,"curve":{"bezier":[0,1e300,1,1]},"layers":[{"id":"a","frame":[0,0,1,1]}]}"#,
      #"{"duration":1,"layers":[{"id":"a","frame":[0,0,1,1],"tracks":[{"property":"anchor","keyframes":[{"value":[1e200,0]}]}]}]}"#,
      #"{"duration":1,"layers":[{"id":"a","frame":[0,0,1,1],"tracks":[{"property":"alpha","keyframes":[{"value":1,"curve":{"spring":{"stiffness":1,"damping":1,"velocity":1e300}}}]}]}]}"#,
    ]
    for json in cases {
      let error = caughtEngineError { try Timeline(jsonBytes: Array(json.utf8)) }
      #expect(error?.code == .outOfRange, "\(json): \(error?.description ?? "accepted")")
    }
  }

  /// Each initial number of a layer past the bound, or not finite, is refused naming its
  /// property; at the bound it is accepted (the one-pass check agrees with the per-property
  /// one).
  @Test func eachInitialNumberPastTheBoundIsRefusedNamingIt() throws {
    let m = Timeline.maximumValueMagnitude
    let scalars: [(LayerProperty, WritableKeyPath<LayerAttributes, Double>)] = [
      (.alpha, \.alpha), (.z, \.z), (.rotationX, \.rotationX), (.rotationY, \.rotationY),
      (.rotationZ, \.rotationZ), (.scaleX, \.scaleX), (.scaleY, \.scaleY),
      (.translationX, \.translationX), (.translationY, \.translationY),
      (.translationZ, \.translationZ), (.perspective, \.perspective),
    ]
    func refusal(_ change: (inout LayerAttributes) -> Void) -> EngineError? {
      var initial = LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10))
      change(&initial)
      return caughtEngineError {
        try Timeline(duration: 1, layers: [TimelineLayer(id: "a", initial: initial)])
      }
    }
    for (property, field) in scalars {
      let past = refusal { $0[keyPath: field] = -m * 2 }
      #expect(past?.code == .outOfRange, "\(property)")
      // `scale` reads `scale.x`, and comes first.
      let named = property == .scaleX ? "scale" : property.rawValue
      #expect(past?.message.hasPrefix("layers[0].\(named) must be within") == true, "\(property)")
      #expect(refusal { $0[keyPath: field] = .nan }?.code == .nonFinite, "\(property)")
      #expect(refusal { $0[keyPath: field] = -m } == nil, "\(property)")
    }
    let elements: [WritableKeyPath<Transform3D, Double>] = [
      \.m11, \.m12, \.m13, \.m14, \.m21, \.m22, \.m23, \.m24,
      \.m31, \.m32, \.m33, \.m34, \.m41, \.m42, \.m43, \.m44,
    ]
    for (index, element) in elements.enumerated() {
      let error = refusal { $0.transform[keyPath: element] = .infinity }
      #expect(error?.message == "layers[0].transform must be finite", "m[\(index)]")
      #expect(refusal { $0.transform[keyPath: element] = -m } == nil, "m[\(index)]")
      #expect(refusal { $0.transform[keyPath: element] = m * 2 }?.code == .outOfRange)
    }
    #expect(
      refusal { $0.frame = Rect(x: m * 2, y: 0, width: 1, height: 1) }?.message.hasPrefix(
        "layers[0].frame must be") == true)
    #expect(refusal { $0.anchor.y = .nan }?.code == .nonFinite)
  }

  /// Every value at the bound, animated by every curve at its bound: all frames finite.
  @Test func timelineValuesAtTheBoundsEvaluateToFiniteFrames() throws {
    let m = Timeline.maximumValueMagnitude
    let big = "\(m)"
    let matrix = "[" + Array(repeating: big, count: 16).joined(separator: ",") + "]"
    let json =
      #"{"duration":1e9,"curve":{"bezier":[0,-1000,1,1000]},"layers":[{"id":"a","frame":["#
      + [big, "-\(big)", big, big].joined(separator: ",") + #"],"anchor":[\#(big),-\#(big)],"#
      + #""z":\#(big),"perspective":\#(big),"rotation.x":\#(big),"translation.z":\#(big),"#
      + #""tracks":[{"property":"transform","keyframes":[{"value":\#(matrix)}]},"#
      + #"{"property":"scale.x","mode":"cubic","keyframes":[{"value":-\#(big),"curve":{"spring":{"mass":1e-6,"stiffness":1e6,"damping":1e-6,"velocity":1e6}}},{"start":0.5,"duration":0.5,"value":\#(big)}]},"#
      + #"{"property":"rotation.y","keyframes":[{"value":\#(big),"curve":{"bezier":[1,1000,0,-1000]}}]},"#
      + #"{"property":"translation.x","mode":"paced","keyframes":[{"value":\#(big)},{"start":0.5,"duration":0.5,"value":-\#(big)}]}]}]}"#
    let timeline = try Timeline(jsonBytes: Array(json.utf8))
    let evaluator = TimelineEvaluator(timeline)
    for step in 0...200 {
      let layer = evaluator.frame(progress: Double(step) / 200).layers[0]
      let numbers =
        [layer.frame.x, layer.frame.y, layer.frame.width, layer.frame.height, layer.anchor.x]
        + [layer.anchor.y, layer.alpha, layer.z] + layer.transform.elements
      #expect(numbers.allSatisfy { $0.isFinite }, "step \(step): \(numbers)")
    }
  }

  @Test func releaseVelocityPastTheBoundIsRefused() throws {
    var clock = try TransitionClock(duration: 0.3, interactive: true, at: 0)
    try clock.update(progress: 0.5, at: 0)
    let error = caughtEngineError { try clock.finish(velocity: 1e300, at: 0) }
    #expect(error?.code == .outOfRange)
    #expect(error?.message.hasPrefix("velocity must be in [-100.0, 100.0]") == true)
    #expect(clock.state == .interactive)
  }

  /// At the largest velocity the spring overshoots its target; progress never leaves [0, 1].
  @Test(arguments: [(true, 100.0), (true, -100.0), (false, -100.0), (false, 100.0)])
  func releasedProgressStaysInTheUnitRange(finish: Bool, velocity: Double) throws {
    for start in [0.001, 0.5, 0.999] {
      var clock = try TransitionClock(duration: 0.3, interactive: true, at: 0)
      try clock.update(progress: start, at: 0)
      if finish {
        try clock.finish(velocity: velocity, at: 0)
      } else {
        try clock.cancel(velocity: velocity, at: 0)
      }
      let end = try #require(clock.endTime)
      #expect(end < 3)
      var sawOvershoot = false
      for step in 0...1000 {
        let progress = clock.progress(at: end * Double(step) / 1000)
        #expect(progress >= 0 && progress <= 1)
        sawOvershoot = sawOvershoot || progress == (finish ? 1 : 0)
      }
      #expect(sawOvershoot)
    }
  }

  /// A release a subnormal distance from the end (normalised velocity 100 / 5e-324 = inf) still
  /// settles, at once.
  @Test func releaseOverATinyDistanceSettles() throws {
    var clock = try TransitionClock(duration: 0.3, interactive: true, at: 0)
    try clock.update(progress: 1 - 0x1p-53, at: 0)
    try clock.finish(velocity: 100, at: 0)
    var cancelled = try TransitionClock(duration: 0.3, interactive: true, at: 0)
    try cancelled.update(progress: .leastNonzeroMagnitude, at: 0)
    try cancelled.cancel(velocity: 1, at: 0)
    for released in [clock, cancelled] {
      let end = try #require(released.endTime)
      #expect(end < 1)
      #expect(
        (0...10).allSatisfy { (0...1).contains(released.progress(at: end * Double($0) / 10)) })
    }
  }

  @Test func theFrameWriterNeverWritesANonFiniteNumber() {
    var sink = ByteSink()
    for value in [Double.nan, .infinity, -.infinity, -Double.nan, .signalingNaN] {
      sink.append(UInt8(ascii: "["))
      sink.appendFiniteNumber(value)
      sink.append(UInt8(ascii: "]"))
      let parsed = try? JSONValue(parsing: sink.bytes)
      #expect(parsed?.arrayValue?.first?.numberValue?.isFinite == true, "\(value)")
      sink.bytes.removeAll()
    }
  }

  @Test func requestIDTextIsKeptExactly() throws {
    let line = Array(#"{"id": 9007199254740993 ,"op":"x","nested":{"id":2}}"#.utf8)
    let (value, texts) = try JSONValue.parsing(line, keepingTextOf: ["id"])
    #expect(texts[0].map { String(decoding: $0, as: UTF8.self) } == "9007199254740993")
    #expect(value["id"] == .number(9_007_199_254_740_992))
    let repeated = try JSONValue.parsing(
      Array(#"{"id":1,"id":"two"}"#.utf8), keepingTextOf: ["id"])
    #expect(repeated.memberTexts[0].map { String(decoding: $0, as: UTF8.self) } == #""two""#)
    #expect(try JSONValue.parsing(Array("[1]".utf8), keepingTextOf: ["id"]).memberTexts[0] == nil)
  }

  @Test func anUnbuiltMemberIsCheckedAndKeptAsText() throws {
    let line = Array(
      #"{"op":"x","context":{"a":[1,{"b":"\u00e9"}],"c":null},"n":{"context":2}}"#.utf8)
    let (value, texts) = try JSONValue.parsing(
      line, keepingTextOf: ["context"], leavingUnbuilt: ["context"])
    #expect(value["context"] == .null)
    #expect(value["n"] == .object(["context": .number(2)]))
    #expect(
      texts[0].map { String(decoding: $0, as: UTF8.self) }
        == #"{"a":[1,{"b":"\u00e9"}],"c":null}"#)
    // Bad text inside it fails as a full parse does: the same message at the same offset.
    let bad = [
      #"{"context":{"a":[1,]}}"#, #"{"context":{"a" 1}}"#, #"{"context":[1 2]}"#,
      #"{"context":"\x"}"#, #"{"context":tru}"#, #"{"context":{"a":1"#,
      #"{"context":\#(String(repeating: "[", count: 70))\#(String(repeating: "]", count: 70))}"#,
    ]
    for text in bad {
      let bytes = Array(text.utf8)
      var full: JSONSyntaxError?
      do { _ = try JSONValue(parsing: bytes) } catch { full = error }
      var skipped: JSONSyntaxError?
      do {
        _ = try JSONValue.parsing(bytes, keepingTextOf: ["context"], leavingUnbuilt: ["context"])
      } catch { skipped = error }
      #expect(full != nil && skipped == full, "\(text)")
    }
  }
}
