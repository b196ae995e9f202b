import Foundation
import Testing
import TransitionJSON

@testable import TransitionKit

/// The context codec's fast path (`ContextReader`) against the reference decoder
/// (`TransitionContext(json:path:)` over a parsed `JSONValue`): it reads what the reference
/// reads, builds the same context, and leaves everything else to the reference, so
/// `TransitionContext(jsonBytes:path:)` gives the reference's context or the reference's error,
/// word for word, whatever the text.
@Suite struct ContextReaderTests {
  static let repository: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url
  }()

  /// A context with every member: nulls, escapes, hints, a match on the other screen.
  static let everything = Array(
    """
     { "operation" : "present" , "container" : [ 390 , 8.44e2 ] , "selected" : "cell\\u002d1" ,
       "match" : "detail" , "theme" : { "dark" : true , "accents" : [ "#ff0000" , null ] } ,
       "duration" : 0.35 , "touch" : [ 10 , -0 ] , "nothing" : null ,
       "from" : { "background" : "#ffffffff" , "layers" : [
         { "id" : "list" , "frame" : [ 0 , 0 , 390 , 844 ] , "background" : null ,
           "content" : null , "role" : null } ,
         { "id" : "cell-1" , "frame" : [ -16.5 , 200 , 358 , 80 ] , "background" : "#ff0000" ,
           "content" : { "text" : "H\\u00e9llo\\n" , "lines" : [ 1 , 2 ] } , "role" : "cell" } ] } ,
       "to" : { "background" : null , "layers" : [
         { "id" : "détail" , "frame" : [ 0 , 0 , 0 , 0 ] } ,
         { "id" : "detail" , "frame" : [ 1e6 , -1e6 , 1e6 , 0 ] , "role" : "header" } ] } }\t
    """.utf8)

  /// A phone's album push, as the benchmark's: 8 covers, 24 photo cells.
  static let albumPush: [UInt8] = {
    let covers = (0..<8).map { index in
      #"{"id":"album-\#(index)","frame":[\#(16 + index % 2 * 187),\#(107 + index / 2 * 230),171,171],"content":{"image":"album-\#(index).jpg"}}"#
    }
    let cells = (0..<24).map { index in
      #"{"id":"photo-\#(index)","frame":[\#(index % 3 * 131),\#(91 + index / 3 * 131),128,128],"role":"cell","content":{"image":"photo-\#(index).jpg"}}"#
    }
    return Array(
      (#"{"operation":"push","container":[390,844],"selected":"album-2","#
        + ##""from":{"background":"#ffffffff","layers":[\##(covers.joined(separator: ","))]},"##
        + ##""to":{"background":"#ffffffff","layers":[\##(cells.joined(separator: ","))]}}"##)
        .utf8)
  }()

  /// The example scenes (each file is a context whose other members are hints).
  static func scenes() throws -> [(name: String, text: [UInt8])] {
    let directory = repository.appendingPathComponent("config/scenes")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasSuffix(".json") }.sorted()
    return try names.map { name in
      (name, Array(try Data(contentsOf: directory.appendingPathComponent(name))))
    }
  }

  /// The context text of every line of the request fuzz corpus that has one: the `begin`s the
  /// fuzzer found interesting, valid and not.
  static func corpusContexts() throws -> [[UInt8]] {
    let directory = repository.appendingPathComponent("Tests/FuzzCorpus/request")
    var contexts: [[UInt8]] = []
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
      let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
      for line in bytes.split(separator: UInt8(ascii: "\n")) {
        guard
          let parsed = try? JSONValue.parsing(line, keepingTextOf: ["context"]),
          let text = parsed.memberTexts[0]
        else { continue }
        contexts.append(text)
      }
    }
    return contexts
  }

  /// The reference's result for `text`, context or error.
  static func reference(_ text: [UInt8], path: String = "context") -> Result<
    TransitionContext, EngineError
  > {
    Result { () throws(EngineError) in try TransitionContext(referenceDecodingOf: text, path: path)
    }
  }

  /// The public decoder's result for `text`, context or error.
  static func decoded(_ text: [UInt8], path: String = "context") -> Result<
    TransitionContext, EngineError
  > {
    Result { () throws(EngineError) in try TransitionContext(jsonBytes: text, path: path) }
  }

  /// Whether the fast path agrees with the reference on `text`: when it reads a context, the
  /// reference reads the same one; and the public decoder gives the reference's result.
  static func agrees(_ text: [UInt8], path: String = "context") -> Bool {
    let reference = reference(text, path: path)
    if let fast = text.withUnsafeBufferPointer(ContextReader.context) {
      guard case .success(let expected) = reference, expected == fast else { return false }
    }
    return decoded(text, path: path) == reference
  }

  @Test func readsEveryMemberWithWhitespaceNullsAndEscapes() throws {
    let fast = try #require(Self.everything.withUnsafeBufferPointer(ContextReader.context))
    #expect(fast == (try Self.reference(Self.everything).get()))
    #expect(fast.to.layers[0].id == "d\u{e9}tail")
    #expect(fast.from.layers[1].content?["text"] == .string("H\u{e9}llo\n"))
    #expect(fast.hints.keys.sorted() == ["duration", "nothing", "theme", "touch"])
    #expect(fast.hints["nothing"] == .null)
    #expect(
      try #require(Self.albumPush.withUnsafeBufferPointer(ContextReader.context))
        == (try Self.reference(Self.albumPush).get()))
  }

  @Test func everyExampleSceneIsReadByTheFastPathAsTheReferenceReadsIt() throws {
    let scenes = try Self.scenes()
    #expect(scenes.count >= 20)
    for (name, text) in scenes {
      let fast = text.withUnsafeBufferPointer(ContextReader.context)
      #expect(fast != nil, "\(name)")
      #expect(fast == (try? Self.reference(text, path: "").get()), "\(name)")
    }
  }

  @Test func everyContextOfTheRequestCorpusGivesTheReferenceResult() throws {
    let contexts = try Self.corpusContexts()
    #expect(contexts.count >= 20)
    for text in contexts {
      #expect(Self.agrees(text), "\(String(decoding: text, as: UTF8.self))")
    }
  }

  /// A member given twice: the reference keeps the last one; the fast path leaves it to the
  /// reference, so the result is the same.
  @Test func repeatedMembersGiveTheReferenceResult() throws {
    let layer = #"{"id":"a","frame":[0,0,1,1]}"#
    let cases = [
      #"{"operation":"push","operation":"pop","container":[1,1],"from":{},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{},"to":{},"theme":1,"theme":2}"#,
      #"{"operation":"push","container":[1,1],"from":{},"to":{},"duration":-1,"duration":2}"#,
      #"{"operation":"push","container":[1,1],"from":{"layers":[],"layers":[\#(layer)]},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{"layers":[{"id":"a","id":"b","frame":[0,0,1,1]}]},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{"layers":[{"id":"a","frame":[0,0,-1,1],"frame":[0,0,1,1]}]},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{"layers":[\#(layer)]},"to":{},"selected":"b","selected":"a"}"#,
    ]
    for text in cases {
      let bytes = Array(text.utf8)
      #expect(bytes.withUnsafeBufferPointer(ContextReader.context) == nil, "\(text)")
      #expect(Self.decoded(bytes) == Self.reference(bytes), "\(text)")
      #expect(Self.decoded(bytes, path: "") == Self.reference(bytes, path: ""), "\(text)")
    }
  }

  /// Numbers at and past every bound, of every spelling the parser reads, in every number of
  /// a context.
  @Test func hostileNumbersGiveTheReferenceResult() throws {
    let numbers = [
      "0", "-0", "1e6", "1000000.0000000001", "-1e6", "-1000001", "1e400", "-1e400", "1e-400",
      "4.9e-324", "2e154", "1.7976931348623157e308", "123456789012345678901234567890", "-1",
      "0.1", "1E2", "01", "1.", ".5", "+1", "-", "1e", "NaN", "Infinity", "\"1\"", "null", "[1]",
    ]
    let template =
      #"{"operation":"push","container":[#0,#1],"duration":#2,"from":{"layers":[{"id":"a","frame":[#3,#4,#5,#6]}]},"to":{}}"#
    var read = 0
    for slot in 0..<7 {
      for number in numbers {
        var text = template.replacingOccurrences(of: "#\(slot)", with: number)
        for other in 0..<7 { text = text.replacingOccurrences(of: "#\(other)", with: "1") }
        let bytes = Array(text.utf8)
        #expect(Self.agrees(bytes), "\(text)")
        if bytes.withUnsafeBufferPointer(ContextReader.context) != nil { read += 1 }
      }
    }
    #expect(read > 30)
  }

  /// Every prefix of a context is refused as the reference refuses it, and so is the whole
  /// with a byte of another kind at each place.
  @Test func truncatedAndCorruptedTextGivesTheReferenceResult() throws {
    let text = Self.everything
    for length in 0..<text.count {
      #expect(Self.agrees(Array(text[..<length])), "prefix of \(length) bytes")
    }
    let corruptions: [UInt8] = [0x00, 0x0A, 0x22, 0x2C, 0x5B, 0x5D, 0x7B, 0x7D, 0x5C, 0xFF]
    for (index, position) in stride(from: 0, to: text.count, by: 3).enumerated() {
      var corrupted = text
      corrupted[position] = corruptions[index % corruptions.count]
      #expect(Self.agrees(corrupted), "\(String(decoding: corrupted, as: UTF8.self))")
    }
    #expect(Self.agrees(text + Array(" x".utf8)))
    #expect(Self.agrees(Array("[]".utf8)))
    #expect(Self.agrees(Array("\"push\"".utf8)))
  }

  /// Nesting up to the parser's bound and past it, in a layer's content and in a hint.
  @Test func deepNestingGivesTheReferenceResult() throws {
    for depth in [60, 61, 62, 63, 64, 65, 200] {
      let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
      let inContent =
        #"{"operation":"push","container":[1,1],"from":{"layers":[{"id":"a","frame":[0,0,1,1],"content":\#(nested)}]},"to":{}}"#
      let inHint = #"{"operation":"push","container":[1,1],"from":{},"to":{},"deep":\#(nested)}"#
      for text in [inContent, inHint] {
        #expect(Self.agrees(Array(text.utf8)), "depth \(depth)")
      }
    }
  }

  /// Every value of the album push and of the context with every member replaced by values of
  /// other types and ranges, and every member removed or joined by an unknown one: the fast
  /// path never accepts what the reference refuses nor builds another context, and the public
  /// decoder's result, context or error, is the reference's, with either path.
  @Test func mutatedContextsGiveTheReferenceResult() throws {
    let replacements: [JSONValue] = [
      .null, .number(-1), .number(2e6), .number(0), .string(""), .string("push"),
      .string("#ff000080"), .string("cell-1"), .bool(true), .array([]),
      .array([.number(0), .number(0), .number(1), .number(1)]), .array([.number(1), .number(1)]),
      .object([:]),
    ]
    var fastlyRead = 0
    var refused = 0
    for document in [Self.everything, Self.albumPush] {
      let mutants = JSONMutants.of(try JSONValue(parsing: document), replacements: replacements)
      for (index, mutant) in mutants.enumerated() {
        var sink = ByteSink(capacity: 4096)
        sink.appendJSON(mutant)
        let text = sink.bytes
        let path = index % 2 == 0 ? "context" : ""
        #expect(Self.agrees(text, path: path), "\(String(decoding: text, as: UTF8.self))")
        if text.withUnsafeBufferPointer(ContextReader.context) != nil { fastlyRead += 1 }
        if case .failure = Self.reference(text) { refused += 1 }
      }
    }
    // Both outcomes are exercised, many times over.
    #expect(fastlyRead > 100)
    #expect(refused > 100)
  }
}
