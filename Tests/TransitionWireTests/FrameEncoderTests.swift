import Foundation
import FrameStreaming
import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

@Suite struct FrameEncoderTests {
  private func decode(_ bytes: [UInt8]) throws -> JSONValue {
    #expect(bytes.last == UInt8(ascii: "\n"))
    #expect(bytes.dropLast().contains(UInt8(ascii: "\n")) == false)
    return try JSONValue(parsing: bytes.dropLast())
  }

  @Test func writesTheFrameContractWithDefaultsLeftOut() throws {
    let plain = LayerState(id: "plain", frame: Rect(x: 0, y: 0, width: 390, height: 844))
    var turned = LayerState(id: "cover", frame: Rect(x: 20.5, y: 120, width: 170, height: 170))
    turned.anchor = Point(x: 0, y: 0.5)
    turned.transform = Transform3D.rotation(angle: -1.1, x: 0, y: 1, z: 0)
      .concatenating(.perspective(m34: -1.0 / 500))
    turned.alpha = 0.25
    turned.hidden = true
    turned.z = 7
    turned.background = try Color(hex: "#11223344")
    turned.content = .object(["image": .string("album-3.jpg")])
    let frame = Frame(t: 0.125, progress: 0.1, layers: [plain, turned])
    var encoder = FrameEncoder()
    let json = try decode(encoder.encode(session: "s1", seq: 42, frame: frame))

    #expect(json["event"] == .string("frame"))
    #expect(json["session"] == .string("s1"))
    #expect(json["seq"] == .number(42))
    #expect(json["t"] == .number(0.125))
    #expect(json["progress"] == .number(0.1))
    let layers = try #require(json["layers"]?.arrayValue)
    #expect(layers.count == 2)

    let first = try #require(layers[0].objectValue)
    #expect(Set(first.keys) == ["id", "frame", "z"])
    #expect(first["frame"] == .array([.number(0), .number(0), .number(390), .number(844)]))

    let second = layers[1]
    #expect(second["anchor"] == .array([.number(0), .number(0.5)]))
    #expect(second["alpha"] == .number(0.25))
    #expect(second["hidden"] == .bool(true))
    #expect(second["z"] == .number(7))
    #expect(second["background"] == .string("#11223344"))
    #expect(second["content"] == .object(["image": .string("album-3.jpg")]))
    let numbers = try #require(second["transform"]?.arrayValue).compactMap(\.numberValue)
    // Every matrix entry reads back within the frame precision: 7 significant digits.
    #expect(numbers.count == 16)
    for (read, entry) in zip(numbers, turned.transform.elements) {
      #expect(abs(read - entry) <= max(abs(entry) * 5e-7, 5e-16), "\(read) vs \(entry)")
    }
  }

  @Test func numbersReadBackWithinTheFramePrecision() throws {
    let awkward: [Double] = [0.1, 1.0 / 3, -2.5e-7, 123_456_789.125, -0.0019999999999999996, 1e21]
    let layers = awkward.enumerated().map { index, value in
      LayerState(id: "l\(index)", frame: Rect(x: value, y: -value, width: 1, height: 2), alpha: 0.5)
    }
    var encoder = FrameEncoder()
    let json = try decode(encoder.encode(session: "s", seq: 0, frame: Frame(layers: layers)))
    let decoded = try #require(json["layers"]?.arrayValue).compactMap {
      $0["frame"]?.arrayValue?.first?.numberValue
    }
    #expect(decoded.count == awkward.count)
    for (read, value) in zip(decoded, awkward) {
      let decimals = FixedPrecisionNumber.decimals(forMagnitude: abs(value))
      let bound = 0.5 * pow(10, -Double(decimals)) + abs(value) * 1e-15
      #expect(abs(read - value) <= bound, "\(read) vs \(value)")
    }
  }

  @Test func escapesSessionAndLayerIds() throws {
    let frame = Frame(layers: [LayerState(id: "a\"b\\c\nd\u{01}é", frame: .zero)])
    var encoder = FrameEncoder()
    let json = try decode(encoder.encode(session: "se\"ss", seq: 1, frame: frame))
    #expect(json["session"] == .string("se\"ss"))
    #expect(json["layers"]?.arrayValue?.first?["id"] == .string("a\"b\\c\nd\u{01}é"))
  }

  @Test func reusedEncoderGivesTheSameBytesForTheSameFrame() {
    let frame = Frame(
      t: 0.5, progress: 0.5,
      layers: [
        LayerState(id: "x", frame: Rect(x: 1, y: 2, width: 3, height: 4), content: .string("c"))
      ])
    var encoder = FrameEncoder()
    let first = encoder.encode(session: "s", seq: 3, frame: frame)
    let second = encoder.encode(session: "s", seq: 3, frame: frame)
    #expect(first == second)
  }
}

@Suite struct FrameTemplateTests {
  private func layers(_ alpha: Double, _ x: Double) -> [LayerState] {
    [
      LayerState(
        id: "still", frame: Rect(x: 1, y: 2, width: 3, height: 4), z: 2,
        background: .white, content: .object(["image": .string("a.jpg")])),
      LayerState(id: "fading", frame: Rect(x: x, y: 0, width: 10, height: 10), alpha: alpha),
    ]
  }

  @Test func anEncoderOfOneTimelineWritesWhatAPlainEncoderWrites() {
    var templated = FrameEncoder(animatedFields: [[], [.frame, .alpha]])
    for (seq, (alpha, x)) in [(0.0, 5.0), (0.5, 7.25), (1, -3)].enumerated() {
      var plain = FrameEncoder()
      let frame = Frame(t: Double(seq), progress: 0.5, layers: layers(alpha, x))
      #expect(
        templated.encode(session: "s", seq: seq, frame: frame)
          == plain.encode(session: "s", seq: seq, frame: frame))
    }
  }

  @Test func aFrameOfAnotherShapeIsWrittenFieldByField() throws {
    var templated = FrameEncoder(animatedFields: [[], [.alpha]])
    _ = templated.encode(session: "s", seq: 0, frame: Frame(layers: layers(0.5, 0)))
    let other = Frame(layers: [LayerState(id: "only", frame: .zero, alpha: 0.25)])
    var plain = FrameEncoder()
    #expect(
      templated.encode(session: "s", seq: 1, frame: other)
        == plain.encode(session: "s", seq: 1, frame: other))
    let json = try JSONValue(
      parsing: templated.encode(session: "s", seq: 2, frame: Frame(layers: layers(0.75, 0)))
        .dropLast())
    #expect(json["layers"]?.arrayValue?.last?["alpha"] == .number(0.75))
    #expect(json["layers"]?.arrayValue?.first?["background"] == .string("#ffffffff"))
  }

  /// Layer `index` of frame `seq`: each animated field changes on its own period, to and from
  /// its default (so that keys come and go), and one frame of 100 has a number past the bound.
  private func changingLayer(_ index: Int, seq: Int) -> LayerState {
    func step(_ period: Int) -> Int { (seq + index) / period }
    let x = seq % 100 == 50 && index == 2 ? 3e15 : Double(step(3)) * 1.5
    return LayerState(
      id: "layer\(index)", frame: Rect(x: x, y: Double(index), width: 40, height: 30),
      transform: step(7) % 3 == 0
        ? .identity : .rotation(angle: Double(step(7)) / 10, x: 0, y: 1, z: 0),
      alpha: step(5) % 2 == 0 ? 1 : Double(step(5)) / 64, hidden: step(11) % 2 == 1,
      z: Double(index), content: index == 0 ? .string("cover") : nil)
  }

  @Test func fieldsThatKeepTheirValueAreCopiedAsTheyWereWritten() {
    let fields: [LayerFields] = Array(repeating: [.frame, .transform, .alpha, .hidden], count: 4)
    var templated = FrameEncoder(animatedFields: fields)
    for seq in 0..<260 {
      // The session's head changes length mid-stream, as do the seq's digits.
      let session = seq < 130 ? "s" : "a-longer-session"
      let frame = Frame(
        t: Double(seq) / 60, progress: Double(seq % 60) / 60,
        layers: (0..<4).map { changingLayer($0, seq: seq) })
      var plain = FrameEncoder()
      let written = templated.encode(session: session, seq: seq, frame: frame)
      let expected = plain.encode(session: session, seq: seq, frame: frame)
      #expect(
        String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
        "seq \(seq)")
    }
  }

  /// Copies of an encoder share its template and the texts kept of its fields: copies
  /// encoding frames in turn, each at its own point of the stream (some of their fields at
  /// the values another copy just wrote, some not), each write what a plain encoder writes.
  @Test func copiesSharingTheirFieldTextsWriteWhatAPlainEncoderWrites() {
    let fields: [LayerFields] = Array(repeating: [.frame, .transform, .alpha, .hidden], count: 4)
    var first = FrameEncoder(animatedFields: fields)
    let layers = (0..<4).map { changingLayer($0, seq: 0) }
    _ = first.encode(session: "s0", seq: 0, frame: Frame(layers: layers))
    var copies = [first, first, first]
    for seq in 0..<200 {
      for index in copies.indices {
        let shifted = seq + [0, 1, 40][index]
        let frame = Frame(
          t: Double(shifted) / 60, progress: 0.5,
          layers: (0..<4).map { changingLayer($0, seq: shifted) })
        var plain = FrameEncoder()
        let session = "s\(index)"
        let written = copies[index].encode(session: session, seq: seq, frame: frame)
        let expected = plain.encode(session: session, seq: seq, frame: frame)
        #expect(
          String(decoding: written, as: UTF8.self) == String(decoding: expected, as: UTF8.self),
          "copy \(index), seq \(seq)")
      }
    }
  }

  /// A field's text is copied while its value's bits stay the same: values that are equal but
  /// spelled alike from other bits (0 and -0), NaN (written 0) and a value that comes back
  /// after another are each written as a plain encoder writes them.
  @Test func aFieldIsCopiedOnlyWhileItsBitsStayTheSame() {
    var templated = FrameEncoder(animatedFields: [[], [.frame, .alpha]])
    let xs: [Double] = [0, -0.0, -0.0, 0, .nan, .nan, 2.5, 0.1, 2.5, 2.5, -2.5, 1e-12, 1e-12]
    for (seq, x) in xs.enumerated() {
      var plain = FrameEncoder()
      let frame = Frame(layers: layers(seq % 3 == 0 ? 0.5 : x.magnitude / 4, x))
      #expect(
        templated.encode(session: "s", seq: seq, frame: frame)
          == plain.encode(session: "s", seq: seq, frame: frame), "x \(x)")
    }
  }

  /// The template's constant fields are written through a cursor too: a layer whose constant
  /// numbers are past its bound (or not finite) is written again value by value, and every
  /// frame reads as a plain encoder writes it.
  @Test func aConstantFieldPastTheReservedBoundIsWrittenValueByValue() {
    for big in [2e15, -7e20, .nan, .infinity] {
      var templated = FrameEncoder(animatedFields: [[], [.alpha], []])
      for (seq, alpha) in [0.25, 0.5, 1].enumerated() {
        var still = LayerState(id: "still", frame: Rect(x: big, y: 1, width: 2, height: 3))
        still.transform = .translation(x: big, y: 0)
        let frame = Frame(
          layers: [
            still, LayerState(id: "fading", frame: .zero, alpha: alpha),
            LayerState(id: "after", frame: Rect(x: 4, y: 5, width: 6, height: 7), z: 2),
          ])
        var plain = FrameEncoder()
        #expect(
          templated.encode(session: "s", seq: seq, frame: frame)
            == plain.encode(session: "s", seq: seq, frame: frame), "\(big), seq \(seq)")
      }
    }
  }

  /// A transform that only scales and moves in the plane is written with its constant
  /// numbers as runs of text: every such transform, and every one a field away from being
  /// one, reads as its sixteen numbers written one by one, by a plain encoder and a templated
  /// one alike.
  @Test func aPlanarScaleAndTranslationIsSpelledAsItsSixteenNumbers() {
    var transforms: [Transform3D] = []
    for (sx, sy, tx, ty) in [
      (0.4839103, 0.3482829, 0, -102.1739), (1, 1, 12.5, 0), (-1, 2, -0.0, 1e-9),
      (0, 0, 2e15, -7e20), (.nan, 1, .infinity, 3), (1e-300, .leastNonzeroMagnitude, 844, 390),
    ] {
      var planar = Transform3D.identity
      planar.m11 = sx
      planar.m22 = sy
      planar.m41 = tx
      planar.m42 = ty
      transforms.append(planar)
      var negativeZeros = planar
      negativeZeros.m12 = -0.0
      negativeZeros.m34 = -0.0
      transforms.append(negativeZeros)
      // Each field off the pattern in turn: the general writer's.
      for (index, off) in [
        (1, 0.5), (2, 1e-9), (5, 1e-300), (10, 0.9999999), (11, -0.002), (14, 3), (15, .nan),
      ] {
        var elements = planar.elements
        elements[index] = off
        let e = elements
        transforms.append(
          Transform3D(
            m11: e[0], m12: e[1], m13: e[2], m14: e[3], m21: e[4], m22: e[5], m23: e[6],
            m24: e[7], m31: e[8], m32: e[9], m33: e[10], m34: e[11], m41: e[12], m42: e[13],
            m43: e[14], m44: e[15]))
      }
    }
    // The identity, `-0` anywhere in it too, is the default: no key at all.
    var identity = Transform3D.identity
    identity.m41 = -0.0
    identity.m12 = -0.0
    for transform in [Transform3D.identity, identity] {
      var layer = LayerState(id: "still", frame: Rect(x: 0, y: 0, width: 1, height: 1))
      layer.transform = transform
      var plain = FrameEncoder()
      var templated = FrameEncoder(animatedFields: [[.transform]])
      for line in [
        plain.encode(session: "s", seq: 0, frame: Frame(layers: [layer])),
        templated.encode(session: "s", seq: 0, frame: Frame(layers: [layer])),
      ] {
        #expect(!String(decoding: line, as: UTF8.self).contains("transform"))
      }
    }
    for transform in transforms {
      var expected = ByteSink()
      expected.append(#","transform":"#)
      for (index, element) in transform.elements.enumerated() {
        expected.appendFixed(element, prefix: UInt8(ascii: index == 0 ? "[" : ","))
      }
      expected.append(UInt8(ascii: "]"))
      var layer = LayerState(id: "zoomed", frame: Rect(x: 0, y: 0, width: 390, height: 844))
      layer.transform = transform
      let frame = Frame(layers: [layer])
      var plain = FrameEncoder()
      var templated = FrameEncoder(animatedFields: [[.transform]])
      for line in [
        plain.encode(session: "s", seq: 0, frame: frame),
        templated.encode(session: "s", seq: 0, frame: frame),
      ] {
        let text = String(decoding: line, as: UTF8.self)
        #expect(
          text.contains(String(decoding: expected.bytes, as: UTF8.self)),
          "\(transform.elements): \(text)")
      }
    }
  }

  @Test func aFrameWithANumberPastTheReservedBoundIsWrittenValueByValue() {
    var templated = FrameEncoder(animatedFields: [[], [.frame, .alpha]])
    var plain = FrameEncoder()
    for x in [1.0, 2e15, -7e20, 3] {
      let frame = Frame(layers: layers(0.5, x))
      #expect(
        templated.encode(session: "s", seq: 1, frame: frame)
          == plain.encode(session: "s", seq: 1, frame: frame), "x \(x)")
    }
  }
}

@Suite struct WireMessageTests {
  @Test func successEchoesTheIdAndCarriesTheFields() throws {
    let bytes = WireMessage.success(id: RequestID(.number(7)), ["session": .string("s1")])
    let json = try JSONValue(parsing: bytes.dropLast())
    #expect(json == .object(["id": .number(7), "ok": .bool(true), "session": .string("s1")]))
  }

  @Test func failureCarriesCodeAndMessage() throws {
    let bytes = WireMessage.failure(
      id: RequestID(.string("a")), WireError(.unknownSession, "no session named s9"))
    let json = try JSONValue(parsing: bytes.dropLast())
    #expect(json["ok"] == .bool(false))
    #expect(json["id"] == .string("a"))
    #expect(json["error"]?["code"] == .string("unknown_session"))
    #expect(json["error"]?["message"] == .string("no session named s9"))
  }

  @Test func completeEvent() throws {
    let json = try JSONValue(
      parsing: WireMessage.complete(session: "s2", finished: false).dropLast())
    #expect(
      json
        == .object([
          "event": .string("complete"), "session": .string("s2"), "finished": .bool(false),
        ]))
  }
}

@Suite struct RequestTests {
  @Test func parsesOpAndId() throws {
    let request = try Request(line: Array(#"{"op":"hello","id":3}"#.utf8))
    #expect(request.op == "hello")
    #expect(request.id?.value == .number(3))
  }

  @Test func rejectsMalformedJSON() {
    #expect(throws: RequestError.self) { try Request(line: Array(#"{"op":"#.utf8)) }
    do {
      _ = try Request(line: Array("{nope".utf8))
      Issue.record("malformed JSON was accepted")
    } catch {
      #expect(error.error.code == .invalidJSON)
    }
  }

  @Test func rejectsAMissingOpButKeepsTheId() {
    do {
      _ = try Request(line: Array(#"{"id":"x1","session":"s1"}"#.utf8))
      Issue.record("a request without op was accepted")
    } catch {
      #expect(error.error.code == .badRequest)
      #expect(error.id?.value == .string("x1"))
    }
  }

  @Test func rejectsNonObjects() {
    do {
      _ = try Request(line: Array("[1,2]".utf8))
      Issue.record("an array was accepted as a request")
    } catch {
      #expect(error.error.code == .badRequest)
    }
  }
}
