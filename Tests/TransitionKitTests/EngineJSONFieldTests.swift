import Testing
import TransitionJSON
import TransitionKit

/// The engine reads JSON through `JSONField` (`JSONPathField<EngineError>`): the JSON module's
/// problems arrive as the engine's codes, with the field's path in the message.
@Suite struct EngineJSONFieldTests {
  @Test func textThatIsNotJSONIsAnInvalidValueNamingTheByte() {
    let error = caughtEngineError { try Timeline(jsonBytes: Array("{\"duration\": }".utf8)) }
    #expect(error?.code == .invalidValue)
    #expect(error?.message == "not valid JSON: unexpected character at byte 13")
  }

  @Test func readerProblemsMapToEngineCodes() throws {
    let root = JSONField(try JSONValue(parsing: #"{"a": {"b": "x"}}"#), path: "")
    #expect(caughtEngineError { try root.required("z") }?.code == .missingField)
    let b = try root.required("a").required("b")
    let wrongType = caughtEngineError { try b.number() }
    #expect(wrongType?.code == .invalidValue)
    #expect(wrongType?.message == "a.b must be a number")
    let infinite = JSONField(.number(.infinity), path: "t")
    #expect(caughtEngineError { try infinite.number() }?.code == .nonFinite)
  }

  @Test func geometryReadsAndRefusesNegativeSizes() throws {
    let rect = JSONField(.array([1, 2, 3, 4].map(JSONValue.number)), path: "frame")
    #expect(try rect.rect() == Rect(x: 1, y: 2, width: 3, height: 4))
    let negative = JSONField(.array([1, 2, -3, 4].map(JSONValue.number)), path: "frame")
    #expect(caughtEngineError { try negative.rect() }?.code == .outOfRange)
  }
}
