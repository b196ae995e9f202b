import FrameStreaming
import Testing
import TransitionKit
import TransitionWire

/// Templated encoders that write their lines into one ``FrameScratch``.
@Suite struct FrameScratchTests {
  /// Two layers: one still, one whose box and alpha move.
  private func frame(_ seq: Int) -> Frame {
    let x = Double(seq) * 1.25 - 3
    return Frame(
      t: Double(seq) / 60, progress: Double(seq) / 10,
      layers: [
        LayerState(
          id: "still", frame: Rect(x: 0, y: 0, width: 390, height: 844), background: .white,
          content: .object(["image": .string("a.jpg")])),
        LayerState(
          id: "moving", frame: Rect(x: x, y: 0, width: 10, height: 10),
          alpha: Double(seq % 4) / 4),
      ])
  }

  private let animated: [LayerFields] = [[], [.frame, .alpha]]

  @Test func encodersSharingAScratchWriteWhatPlainEncodersWrite() {
    let scratch = FrameScratch()
    var encoders = ["a", "bb", "c\u{e9}"].map { _ in
      FrameEncoder(animatedFields: animated, scratch: scratch)
    }
    for seq in 0..<8 {
      for (index, session) in ["a", "bb", "c\u{e9}"].enumerated() {
        var plain = FrameEncoder()
        #expect(
          encoders[index].encode(session: session, seq: seq, frame: frame(seq))
            == plain.encode(session: session, seq: seq, frame: frame(seq)))
      }
    }
  }

  @Test func anEncoderCalledWhileALineIsLentWritesIntoItsOwnBuffer() {
    let scratch = FrameScratch()
    var outer = FrameEncoder(animatedFields: animated, scratch: scratch)
    var inner = FrameEncoder(animatedFields: animated, scratch: scratch)
    var plain = FrameEncoder()
    let expectedOuter = plain.encode(session: "outer", seq: 3, frame: frame(3))
    let expectedInner = plain.encode(session: "inner", seq: 5, frame: frame(5))
    outer.encode(session: "outer", seq: 3, frame: frame(3)) { outerLine in
      #expect(scratch.isLent)
      let innerLine = inner.encode(session: "inner", seq: 5, frame: frame(5))
      #expect(innerLine == expectedInner)
      // The outer line, still lent, is untouched by the inner encoder's.
      #expect(Array(outerLine) == expectedOuter)
    }
    #expect(!scratch.isLent)
    #expect(
      inner.encode(session: "inner", seq: 6, frame: frame(6))
        == plain.encode(session: "inner", seq: 6, frame: frame(6)))
  }

  @Test func aLineLongerThanTheScratchIsWrittenIntoTheEncodersOwnBuffer() {
    let scratch = FrameScratch(capacity: 64)
    var encoder = FrameEncoder(animatedFields: animated, scratch: scratch)
    for seq in 0..<3 {
      var plain = FrameEncoder()
      let line = encoder.encode(session: "s", seq: seq, frame: frame(seq))
      #expect(line.count > 64)
      #expect(line == plain.encode(session: "s", seq: seq, frame: frame(seq)))
    }
  }

  @Test func aBodyThatThrowsGivesTheScratchBack() throws {
    struct Thrown: Error {}
    let scratch = FrameScratch()
    var encoder = FrameEncoder(animatedFields: animated, scratch: scratch)
    #expect(throws: Thrown.self) {
      try encoder.encode(session: "s", seq: 0, frame: frame(0)) { _ in throw Thrown() }
    }
    #expect(!scratch.isLent)
    var plain = FrameEncoder()
    #expect(
      encoder.encode(session: "s", seq: 1, frame: frame(1))
        == plain.encode(session: "s", seq: 1, frame: frame(1)))
  }
}
