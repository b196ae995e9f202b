import FrameStreaming
import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

/// What a hostile client puts in ids, and what a broken engine could hand the frame encoder.
@Suite struct HostileWireTests {
  @Test(arguments: [
    "a\u{7F}", "a\u{85}", "\u{9F}", "a\u{2028}", "a\u{2029}", "a\u{200B}", "\u{202E}x", "\u{FEFF}",
    "\u{0}", "tab\t",
  ])
  func sessionIDsWithControlCharactersAreRefused(id: String) {
    #expect(SessionID.problem(with: id)?.contains("control characters") == true)
  }

  @Test(arguments: ["s1", "drag-1", "ünïcödé", "🙂", String(repeating: "x", count: 128)])
  func ordinarySessionIDsAreAccepted(id: String) {
    #expect(SessionID.problem(with: id) == nil)
  }

  @Test func sessionIDLengthAndStar() {
    #expect(SessionID.problem(with: "") != nil)
    #expect(SessionID.problem(with: String(repeating: "x", count: 129)) != nil)
    #expect(SessionID.problem(with: "*") != nil)
  }

  @Test(arguments: ["9007199254740993", "1.50", "-0", "1E+2", #""a\u0062""#, "null"])
  func repliesEchoTheIDAsSent(id: String) throws {
    let request = try Request(line: Array(#"{"op":"hello","id":"#.utf8) + Array(id.utf8) + [125])
    let success = String(decoding: WireMessage.success(id: request.id), as: UTF8.self)
    #expect(success == #"{"id":"# + id + #","ok":true}"# + "\n")
    let failure = String(
      decoding: WireMessage.failure(id: request.id, WireError(.badRequest, "x")), as: UTF8.self)
    #expect(failure.contains(#","id":"# + id + ","))
  }

  @Test func framesCarryNoNonFiniteNumber() throws {
    var layer = LayerState(
      id: "a", frame: Rect(x: .nan, y: .infinity, width: -.infinity, height: 1))
    layer.anchor = Point(x: .nan, y: 0)
    layer.alpha = .nan
    layer.z = .infinity
    layer.transform.m34 = .nan
    layer.transform.m41 = -.infinity
    var encoder = FrameEncoder()
    let bytes = encoder.encode(
      session: "s", seq: 0, frame: Frame(t: .nan, progress: .infinity, layers: [layer]))
    let text = String(decoding: bytes, as: UTF8.self)
    for word in ["null", "nan", "inf"] { #expect(!text.lowercased().contains(word), "\(text)") }
    let event = try JSONValue(parsing: bytes.dropLast())
    let encoded = try #require(event["layers"]?.arrayValue?.first)
    for key in ["frame", "anchor", "transform", "alpha", "z"] {
      let value = try #require(encoded[key], "\(key) missing")
      #expect((value.arrayValue ?? [value]).allSatisfy { $0.numberValue?.isFinite == true })
    }
  }
}
