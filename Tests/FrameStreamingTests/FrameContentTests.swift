import FrameStreaming
import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

/// A layer's `content` on the wire is always the content of the frame being encoded, whatever
/// the encoder wrote before.
@Suite struct FrameContentTests {
  private func contents(_ bytes: [UInt8]) throws -> [JSONValue?] {
    let json = try JSONValue(parsing: bytes.dropLast())
    return (json["layers"]?.arrayValue ?? []).map { $0["content"] }
  }

  private func frame(_ contents: [JSONValue?]) -> Frame {
    Frame(
      layers: contents.enumerated().map { index, content in
        LayerState(id: "l\(index)", frame: .zero, content: content)
      })
  }

  @Test func anEncoderReusedForAnotherTimelineWritesTheNewContent() throws {
    var encoder = FrameEncoder()
    let first = frame([.string("album-1.jpg"), nil])
    let second = frame([.string("photo-9.jpg"), .object(["text": .string("Title")])])
    #expect(
      try contents(encoder.encode(session: "a", seq: 0, frame: first)) == [
        .string("album-1.jpg"), nil,
      ])
    #expect(
      try contents(encoder.encode(session: "b", seq: 0, frame: second)) == [
        .string("photo-9.jpg"), .object(["text": .string("Title")]),
      ])
    #expect(
      try contents(encoder.encode(session: "a", seq: 1, frame: first)) == [
        .string("album-1.jpg"), nil,
      ])
  }

  @Test func aRendererWritesWhatEvaluatingThenEncodingWrites() throws {
    let timeline = try Timeline(
      duration: 0.5,
      layers: [
        TimelineLayer(
          id: "card", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10)),
          content: .string("card.png"),
          tracks: [
            PropertyTrack(.alpha, keyframes: [Keyframe(start: 0, duration: 1, value: .number(0))])
          ])
      ])
    var renderer = FrameRenderer(session: "s7", timeline: timeline)
    var encoder = FrameEncoder()
    for (seq, progress) in [0.0, 0.25, 1].enumerated() {
      let frame = TimelineEvaluator(timeline).frame(progress: progress)
      let expected = encoder.encode(session: "s7", seq: seq, frame: frame)
      #expect(renderer.render(seq: seq, progress: progress) == expected)
      #expect(renderer.frame == frame)
    }
    let json = try JSONValue(parsing: renderer.render(seq: 3, progress: 0.5, time: 9).dropLast())
    #expect(json["t"] == .number(9))
    #expect(json["layers"]?.arrayValue?.first?["alpha"] == .number(0.5))
    #expect(json["layers"]?.arrayValue?.first?["content"] == .string("card.png"))
  }
}
