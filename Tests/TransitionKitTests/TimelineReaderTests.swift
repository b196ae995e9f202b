import Testing
import TransitionJSON

@testable import TransitionKit

/// The timeline codec's fast path (`TimelineReader`) against the reference decoder
/// (`Timeline(json:)` over a parsed `JSONValue`): it reads what the reference reads, builds the
/// same timeline, and leaves everything else to the reference, so `Timeline(jsonBytes:)` gives
/// the reference's timeline or the reference's error, word for word, whatever the text.
@Suite struct TimelineReaderTests {
  /// Every property, mode and kind of curve, with content, a gesture and warnings.
  static func document() throws -> JSONValue {
    guard case .object(var members) = try TimelineJSONTests.everything().json else {
      throw EngineError(.invalidValue, "a timeline's JSON is an object")
    }
    members["gesture"] = .object([
      "hold": .array([.string("second")]), "axis": .string("y"), "range": .number(600),
      "direction": .number(-1),
    ])
    members["warnings"] = .array([.string("one"), .string("two")])
    return .object(members)
  }

  @Test(arguments: [false, true])
  func readsTheWholeTimelineInEitherMemberOrder(reversed: Bool) throws {
    let text = Self.text(try Self.document(), reversed: reversed)
    let reference = try Timeline(referenceDecodingOf: text)
    let fast = try #require(text.withUnsafeBufferPointer(TimelineReader.timeline))
    #expect(fast == reference)
    #expect(fast.gesture != nil)
    #expect(fast.warnings == ["one", "two"])
  }

  @Test func readsWhitespaceNullsAndEscapes() throws {
    let text = Array(
      """
       { "layers" : [ { "id" : "a\\u00e9\\n", "frame" : [ 0 , 1.5e1 , 2 , 3 ] , "alpha" : null ,
         "content" : null , "tracks" : [ { "mode" : null , "keyframes" : [ { "value" : 0.5 ,
         "curve" : null , "start" : null } ] , "property" : "alpha" } ] } ] ,
         "curve" : null , "gesture" : null , "warnings" : null , "duration" : 2 }\t
      """.utf8)
    let fast = try #require(text.withUnsafeBufferPointer(TimelineReader.timeline))
    #expect(fast == (try Timeline(referenceDecodingOf: text)))
    #expect(fast.layers[0].id == "a\u{e9}\n")
  }

  /// A member given twice: the reference keeps the last one; the fast path leaves it to the
  /// reference, so the result is the same.
  @Test func repeatedMembersGiveTheReferenceResult() throws {
    let cases = [
      #"{"duration":1,"duration":2,"layers":[{"id":"a","frame":[0,0,1,1]}]}"#,
      #"{"duration":1,"layers":[{"id":"a","id":"b","frame":[0,0,1,1]}]}"#,
      #"{"duration":1,"layers":[{"id":"a","frame":[0,0,1,1],"alpha":0.5,"alpha":0.2}]}"#,
    ]
    for text in cases {
      let bytes = Array(text.utf8)
      #expect(bytes.withUnsafeBufferPointer(TimelineReader.timeline) == nil)
      #expect(try Timeline(jsonBytes: bytes) == Timeline(referenceDecodingOf: bytes))
    }
  }

  /// Every value of the document replaced by values of other types and ranges, and every
  /// member removed or joined by an unknown one, in both member orders: the fast path never
  /// accepts what the reference refuses nor builds another timeline, and the public decoder's
  /// result, timeline or error, is the reference's.
  @Test func mutatedDocumentsGiveTheReferenceResult() throws {
    let replacements: [JSONValue] = [
      .null, .number(-1), .number(2), .string("easeIn"), .string("#ff000080"), .bool(true),
      .array([]), .array([.number(0), .number(0), .number(1), .number(1)]), .object([:]),
    ]
    let document = try Self.document()
    let mutants = JSONMutants.of(document, replacements: replacements)
    var fastlyRead = 0
    var refused = 0
    for (index, mutant) in mutants.enumerated() {
      let text = Self.text(mutant, reversed: index % 2 == 1)
      let reference = Result { () throws(EngineError) in try Timeline(referenceDecodingOf: text) }
      if let fast = text.withUnsafeBufferPointer(TimelineReader.timeline) {
        fastlyRead += 1
        #expect((try? reference.get()) == fast, "\(String(decoding: text, as: UTF8.self))")
      } else {
        let decoded = Result { () throws(EngineError) in try Timeline(jsonBytes: text) }
        #expect(decoded == reference)
      }
      if case .failure = reference { refused += 1 }
    }
    // Both outcomes are exercised, many times over.
    #expect(fastlyRead > 100)
    #expect(refused > 100)
  }

  // MARK: - Helpers

  /// Compact JSON text with object members sorted, or in reverse order.
  private static func text(_ value: JSONValue, reversed: Bool) -> [UInt8] {
    var sink = ByteSink(capacity: 1024)
    write(value, reversed: reversed, into: &sink)
    return sink.bytes
  }

  private static func write(_ value: JSONValue, reversed: Bool, into sink: inout ByteSink) {
    switch value {
    case .object(let members):
      sink.append(UInt8(ascii: "{"))
      let keys = members.keys.sorted(by: reversed ? (>) : (<))
      for (index, key) in keys.enumerated() {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        sink.appendJSON(.string(key))
        sink.append(UInt8(ascii: ":"))
        write(members[key]!, reversed: reversed, into: &sink)
      }
      sink.append(UInt8(ascii: "}"))
    case .array(let elements):
      sink.append(UInt8(ascii: "["))
      for (index, element) in elements.enumerated() {
        if index > 0 { sink.append(UInt8(ascii: ",")) }
        write(element, reversed: reversed, into: &sink)
      }
      sink.append(UInt8(ascii: "]"))
    default:
      sink.appendJSON(value)
    }
  }
}
