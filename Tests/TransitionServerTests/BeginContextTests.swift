import Foundation
import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

@testable import TransitionServer

/// A `begin`'s context is read from the request's text of it: the same context, or the same
/// error word for word, as decoding the request's parsed `context` member.
@Suite struct BeginContextTests {
  /// The result of `begin` line `line`: its request, or the error its reply would carry.
  private static func begin(_ line: [UInt8]) -> Result<BeginRequest, WireError> {
    Result { () throws(WireError) in
      do {
        return try BeginRequest(try Request(line: line))
      } catch let error as RequestError {
        throw error.error
      } catch let error as WireError {
        throw error
      } catch {
        preconditionFailure("\(error)")
      }
    }
  }

  /// What the line's `context` member, parsed as a value, decodes to, or its error as `begin`
  /// reports it; nil when the line fails before its context is read.
  private static func reference(_ line: [UInt8]) -> Result<TransitionContext, WireError>? {
    guard (try? Request(line: line)) != nil, let parsed = try? JSONValue(parsing: line),
      let member = try? JSONField(parsed, path: "").required("context")
    else { return nil }
    return Result { () throws(WireError) in
      do throws(EngineError) {
        return try TransitionContext(json: member.value, path: "context")
      } catch {
        throw WireError(.invalidContext, error.message)
      }
    }
  }

  /// Whether `begin` reads the context of `line` as the reference does (and then may refuse
  /// another field).
  private static func agrees(_ line: [UInt8]) -> Bool {
    guard let reference = reference(line) else { return true }
    switch (begin(line), reference) {
    case (.success(let request), .success(let context)): return request.context == context
    case (.failure(let error), .failure(let expected)): return error == expected
    // A field after the context refused.
    case (.failure(let error), .success): return error.code != .invalidContext
    default: return false
    }
  }

  @Test func everyBeginOfTheRequestCorpusReadsItsContextAsTheReference() throws {
    let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../FuzzCorpus/request").standardized
    var begins = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
      let bytes = Array(try Data(contentsOf: directory.appendingPathComponent(name)))
      for line in bytes.split(separator: UInt8(ascii: "\n")) {
        #expect(Self.agrees(Array(line)), "\(name): \(String(decoding: line, as: UTF8.self))")
        if Self.reference(Array(line)) != nil { begins += 1 }
      }
    }
    #expect(begins >= 20)
  }

  @Test func hostileContextsGiveTheSameErrors() {
    let layer = #"{"id":"a","frame":[0,0,1,1]}"#
    let contexts = [
      #"{"operation":"push","container":[390,844],"from":{"layers":[\#(layer)]},"to":{},"selected":"a"}"#,
      #"{"operation":"push","container":[390,844],"from":{"layers":[\#(layer),\#(layer)]},"to":{}}"#,
      #"{"operation":"push","operation":"slide","container":[1,1],"from":{},"to":{}}"#,
      #"{"operation":"push","container":[1,1e400],"from":{},"to":{}}"#,
      #"{"operation":"push","container":[1,2e6],"from":{},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{"layers":[{"id":"a","frame":[0,0,-1,1]}]},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{"layers":[{"id":"a","frame":[0,0,1]}]},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{"layers":[{"id":"","frame":[0,0,1,1]}]},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{"layers":[{"id":"a","frame":[0,0,1,1],"x":1}]},"to":{}}"#,
      #"{"operation":"push","container":[1,1],"from":{},"to":{},"duration":0}"#,
      #"{"operation":"push","container":[1,1],"from":{},"to":{},"selected":"b"}"#,
      #"{"operation":"push","container":[1,1],"from":{},"to":null}"#,
      #"{"operation":"push","container":[1,1],"from":{},"to":{},"deep":\#(String(repeating: "[", count: 70))1\#(String(repeating: "]", count: 70))}"#,
      "null", "5", "[]", #""push""#, "{}",
    ]
    for context in contexts {
      let line = Array(#"{"op":"begin","context":\#(context)}"#.utf8)
      #expect(Self.agrees(line), "\(context)")
      // A context given twice: the last one is read, its text as its value.
      let twice = Array(#"{"op":"begin","context":{},"context":\#(context)}"#.utf8)
      #expect(Self.agrees(twice), "twice: \(context)")
    }
  }
}
