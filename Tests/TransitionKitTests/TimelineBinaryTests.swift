import Foundation
import Testing
import TransitionJSON

@testable import TransitionKit

/// The timeline's binary form (what the plugin host sends for the timelines it builds): every
/// property, mode, curve, content, gesture and warning survives it; a broken form is refused
/// naming the byte, never trapped on; a value the engine refuses is refused as in JSON.
@Suite struct TimelineBinaryTests {
  static func withGestureAndWarnings() throws -> Timeline {
    try Timeline(json: try TimelineReaderTests.document())
  }

  @Test func everyPropertyCurveGestureAndWarningSurvives() throws {
    for timeline in [try TimelineJSONTests.everything(), try Self.withGestureAndWarnings()] {
      let decoded = try Timeline(binary: timeline.binaryEncoded)
      #expect(decoded == timeline)
      #expect(decoded.warnings == timeline.warnings)
      #expect(decoded.jsonText == timeline.jsonText)
    }
  }

  /// The host-message fuzz corpus's binary answer, written by hand from docs/plugins.md ("The
  /// host protocol"), reads as the timeline it spells.
  @Test func theFormAsDocumentedReads() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../FuzzCorpus/host-message/answer-binary-timeline").standardized
    let message = Array(try Data(contentsOf: path))
    // length 4, kind, status 3, call 4.
    #expect(message[4] == 5 && message[5] == 3)
    let timeline = try Timeline(binary: message.dropFirst(10))
    #expect(timeline.duration == 0.35)
    #expect(timeline.layers.map(\.id) == ["from", "to"])
    #expect(timeline.gesture?.hold == ["to"])
    #expect(timeline.warnings == ["guessed the selected cell"])
    let to = timeline.layers[1]
    #expect(to.initial.alpha == 0.5)
    #expect(to.initial.background == (try Color(hex: "#102030ff")))
    #expect(to.tracks.map(\.property) == [.alpha, .scaleX])
    #expect(to.tracks[0].keyframes[0].curve == .easeInEaseOut)
    #expect(to.tracks[1].keyframes[0].curve == .spring(try Spring(stiffness: 300, damping: 20)))
    #expect(to.tracks[1].keyframes[0].value == .number(1.25))
  }

  @Test func aColourIsEightBitsAComponentAsInJSON() throws {
    var initial = LayerAttributes(frame: Rect(x: 0, y: 0, width: 10, height: 10))
    initial.background = Color(red: 0.3, green: 0.5, blue: 2, alpha: -1)
    let timeline = try Timeline(
      duration: 1, layers: [TimelineLayer(id: "a", initial: initial)])
    let fromJSON = try Timeline(jsonBytes: timeline.jsonText)
    #expect(try Timeline(binary: timeline.binaryEncoded) == fromJSON)
    #expect(fromJSON.layers[0].initial.background != initial.background)
  }

  @Test func everyPrefixIsRefusedAsEndingEarly() throws {
    let bytes = try Self.withGestureAndWarnings().binaryEncoded
    for count in 0..<bytes.count {
      #expect(throws: EngineError.self, "\(count) bytes") {
        try Timeline(binary: bytes.prefix(count))
      }
    }
    #expect(
      message(of: Array(bytes.prefix(bytes.count - 1)))?.hasPrefix(
        "the binary timeline is malformed at byte") == true)
  }

  /// Every byte changed to three other values: a refusal or a valid timeline, never a trap,
  /// and a timeline read from a changed form survives its own binary form.
  @Test func everyChangedByteIsRefusedOrReadsAsAValidTimeline() throws {
    let bytes = try Self.withGestureAndWarnings().binaryEncoded
    var refused = 0
    for index in bytes.indices {
      for replacement: UInt8 in [0, 0xff, bytes[index] ^ 0x5a] where replacement != bytes[index] {
        var changed = bytes
        changed[index] = replacement
        guard let timeline = try? Timeline(binary: changed) else {
          refused += 1
          continue
        }
        #expect(try Timeline(binary: timeline.binaryEncoded) == timeline, "byte \(index)")
      }
    }
    #expect(refused > 0)
  }

  @Test func aBrokenShapeNamesItsByte() throws {
    let bytes = try TimelineJSONTests.everything().binaryEncoded
    #expect(
      message(of: bytes + [0])
        == "the binary timeline is malformed at byte \(bytes.count): 1 bytes after the end")
    #expect(message(of: [UInt8(ascii: "{")] + bytes.dropFirst())?.contains("magic") == true)
    // The curve of the timeline comes after the magic and the duration.
    var curve = bytes
    curve[12] = 9
    #expect(message(of: curve) == "the binary timeline is malformed at byte 13: unknown curve 9")
  }

  @Test func aCountLargerThanTheBytesLeftIsRefused() throws {
    let timeline = try Timeline(
      duration: 1,
      layers: [TimelineLayer(id: "a", initial: LayerAttributes(frame: .zero))])
    var bytes = timeline.binaryEncoded
    // magic 4, duration 8, linear curve 1, no gesture 1, no warnings 4: the layer count.
    #expect(bytes[18..<22] == [1, 0, 0, 0])
    bytes.replaceSubrange(18..<22, with: [0xff, 0xff, 0xff, 0x7f])
    #expect(message(of: bytes)?.contains("a count of 2147483647 is more than") == true)
  }

  @Test func anIdThatIsNotUTF8IsRefused() throws {
    let timeline = try Timeline(
      duration: 1,
      layers: [TimelineLayer(id: "é", initial: LayerAttributes(frame: .zero))])
    var bytes = timeline.binaryEncoded
    let index = try #require(bytes.firstIndex(of: 0xc3))
    bytes[index] = 0xff
    #expect(message(of: bytes)?.hasSuffix("a string is not UTF-8") == true)
  }

  /// A value the validating initialisers refuse gets the JSON decoder's refusal.
  @Test func aValueTheEngineRefusesIsRefusedAsInJSON() throws {
    let marker = 0.123_456_789
    let timeline = try Timeline(
      duration: 1,
      layers: [
        TimelineLayer(
          id: "a", initial: LayerAttributes(frame: .zero),
          tracks: [
            PropertyTrack(
              .alpha, keyframes: [Keyframe(start: marker, duration: 0.5, value: .number(1))])
          ])
      ])
    let bytes = { (value: Double) in withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
    }
    let encoded = timeline.binaryEncoded
    let start = try #require(encoded.indices.first { encoded[$0...].starts(with: bytes(marker)) })
    var late = encoded
    late.replaceSubrange(start..<(start + 8), with: bytes(2))
    let json = try JSONValue(
      parsing:
        #"{"duration":1,"layers":[{"id":"a","frame":[0,0,0,0],"tracks":[{"property":"alpha","#
        + #""keyframes":[{"start":2,"duration":0.5,"value":1}]}]}]}"#)
    let refusal = try #require(error(of: late))
    #expect(refusal.code == .outOfRange)
    #expect(throws: refusal) { try Timeline(json: json) }
    var notANumber = encoded
    notANumber.replaceSubrange(start..<(start + 8), with: bytes(.nan))
    #expect(error(of: notANumber)?.code == .nonFinite)
  }

  private func error(of bytes: [UInt8]) -> EngineError? {
    do {
      _ = try Timeline(binary: bytes)
      return nil
    } catch {
      return error
    }
  }

  private func message(of bytes: [UInt8]) -> String? { error(of: bytes)?.message }
}
