import Foundation
import Testing
import TransitionJSON

@testable import TransitionKit

/// The timeline's binary form (what the plugin host sends for the timelines it builds): every
/// property, mode, curve, content, gesture and warning survives it; a broken form is refused
/// naming the byte, never trapped on; a value the engine refuses is refused as in JSON.
@Suite struct TimelineBinaryTests {
  static func withGestureAndWarnings() throws -> Timeline {
    try Timeline(json: try TimelineJSONTests.document())
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

  /// What a `make_timeline` returned is read in the form its first bytes name; a binary form
  /// of another version is refused naming both versions.
  @Test func aReturnedTimelineIsReadInItsForm() throws {
    let timeline = try Self.withGestureAndWarnings()
    #expect(Timeline.isBinaryForm(timeline.binaryEncoded))
    #expect(!Timeline.isBinaryForm(timeline.jsonText))
    #expect(try Timeline(returned: timeline.binaryEncoded) == timeline)
    #expect(try Timeline(returned: timeline.jsonText) == timeline)
    var later = timeline.binaryEncoded
    later[3] = 2
    #expect(Timeline.isBinaryForm(later))
    do throws(EngineError) {
      _ = try Timeline(returned: later)
      Issue.record("a binary timeline of version 2 was read")
    } catch {
      #expect(error.message == "the binary timeline is of version 2; this build reads version 1")
    }
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

  /// A handover is an extra after the layers: a timeline without one ends with its layers, one
  /// with it survives both forms, and one out of bounds is refused as in JSON.
  @Test func aHandoverFollowsTheLayersOnlyWhenSet() throws {
    let layers = [TimelineLayer(id: "a", initial: LayerAttributes(frame: .zero))]
    let plain = try Timeline(duration: 1, layers: layers)
    let tuned = try Timeline(duration: 1, layers: layers, handover: 0.1)
    #expect(plain.handover == nil && tuned.handover == 0.1)
    #expect(tuned.binaryEncoded == plain.binaryEncoded + [1] + 0.1.bitPattern.littleEndianBytes)
    for timeline in [plain, tuned] {
      #expect(try Timeline(binary: timeline.binaryEncoded) == timeline)
      #expect(try Timeline(jsonBytes: timeline.jsonText) == timeline)
      #expect(try Timeline(json: timeline.json) == timeline)
    }
    #expect(String(decoding: tuned.jsonText, as: UTF8.self).contains(#""handover":0.1,"layers""#))
    for seconds in [0, -1, 10.5, .infinity] {
      var bytes = plain.binaryEncoded + [1] + seconds.bitPattern.littleEndianBytes
      #expect(message(of: bytes)?.hasPrefix("handover must be") == true, "\(seconds)")
      bytes = plain.binaryEncoded + [1, 0]
      #expect(message(of: bytes)?.contains("it ends early") == true)
    }
    #expect(throws: EngineError.self) { try Timeline(duration: 1, layers: layers, handover: 11) }
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

  /// Ids and warnings are decoded at once when they are ASCII, validated otherwise: both read
  /// back as the strings written, control characters and all.
  @Test func asciiAndOtherStringsReadAsWritten() throws {
    let ids = ["a\u{0}b\u{7f}", "é-photo ✓", "\u{1F600}", "x"]
    var timeline = try Timeline(
      duration: 1,
      layers: ids.map { TimelineLayer(id: $0, initial: LayerAttributes(frame: .zero)) })
    timeline.warnings = ["plain", "ünïcode", ""]
    let decoded = try Timeline(binary: timeline.binaryEncoded)
    #expect(decoded.layers.map(\.id) == ids)
    #expect(decoded.warnings == timeline.warnings)
  }

  /// The counts of tracks and keyframes are checked against the bytes left before room is
  /// made for them: the largest count the bytes allow, over bytes that hold something else,
  /// is refused.
  @Test func theLargestCountTheBytesAllowIsRefusedWhenTheyHoldSomethingElse() throws {
    let marker = 0.123_456_789
    let encoded = try Self.oneKeyframe(
      .alpha, Keyframe(start: marker, duration: 0.5, value: .number(1)),
      then: [
        TimelineLayer(
          id: "b", initial: LayerAttributes(frame: Rect(x: 1, y: 2, width: 3, height: 4)))
      ]
    ).binaryEncoded
    let start = try Self.offset(of: marker, in: encoded)
    // The u32 keyframe count just before the first keyframe's start; the u32 track count
    // before the track's u8 property and u8 mode.
    for (countAt, itemBytes) in [(start - 4, 18), (start - 10, 6)] {
      var bytes = encoded
      let count = UInt32((bytes.count - countAt - 4) / itemBytes)
      #expect(count > 1)
      bytes.replaceSubrange(
        countAt..<(countAt + 4), with: withUnsafeBytes(of: count.littleEndian, Array.init))
      #expect(error(of: bytes) != nil, "count at \(countAt)")
    }
  }

  /// A transform keyframe with a number that is not finite, or over the bound, is refused
  /// naming which, as the validation says it.
  @Test func aTransformKeyframeOutOfBoundsIsNamed() throws {
    var matrix = Transform3D.identity
    matrix.m41 = 0.123_456_789
    let encoded = try Self.oneKeyframe(
      .transform, Keyframe(start: 0, duration: 1, value: .transform(matrix))
    ).binaryEncoded
    let at = try Self.offset(of: matrix.m41, in: encoded)
    func with(m41: Double) -> [UInt8] {
      var bytes = encoded
      bytes.replaceSubrange(at..<(at + 8), with: Self.numberBytes(m41))
      return bytes
    }
    for value in [Double.nan, .infinity] {
      let refusal = try #require(error(of: with(m41: value)))
      #expect(refusal.code == .nonFinite)
      #expect(refusal.message == "layers[0].tracks[0].keyframes[0].value must be finite")
    }
    let refusal = try #require(error(of: with(m41: 2e15)))
    #expect(refusal.code == .outOfRange)
    #expect(refusal.message.hasPrefix("layers[0].tracks[0].keyframes[0].value must be within ±"))
    #expect(try Timeline(binary: with(m41: 1e15)).layers.count == 1)
  }

  /// A timeline whose layer "a" animates `property` with `keyframe` alone, `others` after it.
  private static func oneKeyframe(
    _ property: LayerProperty, _ keyframe: Keyframe, then others: [TimelineLayer] = []
  ) throws -> Timeline {
    try Timeline(
      duration: 1,
      layers: [
        TimelineLayer(
          id: "a", initial: LayerAttributes(frame: .zero),
          tracks: [PropertyTrack(property, keyframes: [keyframe])])
      ] + others)
  }

  /// `value` as the binary form writes a number.
  private static func numberBytes(_ value: Double) -> [UInt8] {
    withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
  }

  /// Where `value`, written as a number, first lies in `bytes`.
  private static func offset(of value: Double, in bytes: [UInt8]) throws -> Int {
    let number = numberBytes(value)
    return try #require(bytes.indices.first { bytes[$0...].starts(with: number) })
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

extension UInt64 {
  /// The eight bytes, little-endian.
  fileprivate var littleEndianBytes: [UInt8] {
    (0..<8).map { UInt8(truncatingIfNeeded: self >> ($0 * 8)) }
  }
}
