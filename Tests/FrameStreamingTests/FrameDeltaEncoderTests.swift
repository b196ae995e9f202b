import FrameStreaming
import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

@Suite struct FrameDeltaEncoderTests {
  /// Frames of one timeline's shape: a layer that never changes beside one whose frame,
  /// transform, alpha, hidden and background change, return to their defaults, and (frame 4)
  /// reach a number past the frame writer's fast bound.
  private static func frames() throws -> [Frame] {
    let still = LayerState(
      id: "still", frame: Rect(x: 0, y: 0, width: 390, height: 844),
      content: .object(["image": .string("a.jpg")]))
    var moving = LayerState(id: "moving", frame: Rect(x: 10, y: 20, width: 100, height: 100))
    moving.content = .object(["text": .string("12 March")])
    var frames: [Frame] = []
    func add(_ change: (inout LayerState) throws -> Void) rethrows {
      try change(&moving)
      frames.append(
        Frame(
          t: Double(frames.count) / 60, progress: Double(frames.count) / 10,
          layers: [still, moving]))
    }
    add { _ in }
    add {
      $0.frame.origin.x = 12.5
      $0.alpha = 0.25
      $0.transform = .rotation(angle: 0.3, x: 0, y: 0, z: 1)
    }
    try add {
      $0.hidden = true
      $0.background = try Color(hex: "#11223344")
    }
    add { _ in }
    add { $0.frame.origin.x = 3e16 }
    add {
      $0.frame.origin.x = 12.5
      $0.alpha = 1
      $0.transform = .identity
      $0.hidden = false
      $0.background = nil
    }
    return frames
  }

  private static let fields: [LayerFields] = [
    [], [.frame, .transform, .alpha, .hidden, .background],
  ]

  private func object(_ line: [UInt8]) throws -> [String: JSONValue] {
    try #require(JSONValue(parsing: line.dropLast()).objectValue)
  }

  @Test func oneTimelinesDeltasRebuildItsFullFrames() throws {
    let frames = try Self.frames()
    var full = FrameEncoder()
    var deltas = FrameDeltaEncoder(animatedFields: Self.fields)
    var keys = KeyFrameWriter()
    var applier = FrameDeltaApplier()
    for (seq, frame) in frames.enumerated() {
      let fullLine = full.encode(session: "s", seq: seq, frame: frame)
      let delta = deltas.encode(session: "s", seq: seq, frame: frame)
      let line = seq == 0 ? keys.keyFrame(fromFull: fullLine) : delta
      let rebuilt = try applier.apply(try object(line))
      #expect(rebuilt == (try object(fullLine)), "frame \(seq)")
    }
  }

  @Test func oneTimelinesDeltasAreTheGeneralEncodersText() throws {
    var general = FrameDeltaEncoder()
    var timeline = FrameDeltaEncoder(animatedFields: Self.fields)
    for (seq, frame) in try Self.frames().enumerated() {
      let expected = general.encode(session: "s", seq: seq, frame: frame)
      let written = timeline.encode(session: "s", seq: seq, frame: frame)
      #expect(String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }
  }

  @Test func aFrameWithNothingChangedListsNoLayer() throws {
    let frames = try Self.frames()
    var deltas = FrameDeltaEncoder(animatedFields: Self.fields)
    _ = deltas.encode(session: "s", seq: 0, frame: frames[2])
    let line = try object(deltas.encode(session: "s", seq: 1, frame: frames[2]))
    #expect(line["layers"] == .array([]))
    #expect(line["key"] == .bool(false))
  }

  @Test func aTimelineWithNoLayersWritesWholeLines() throws {
    var deltas = FrameDeltaEncoder(animatedFields: [])
    for seq in 0..<3 {
      let line = try object(
        deltas.encode(session: "s", seq: seq, frame: Frame(t: 0, progress: 0.5, layers: [])))
      #expect(line["seq"] == .number(Double(seq)))
      #expect(line["layers"] == .array([]))
    }
  }
}
