import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

@testable import TransitionServer

/// The context a `begin` hands to its animator: the request's own text of it, with the
/// request's `duration`, `params` and `touch` added over any members of the same names.
@Suite struct BeginRequestTests {
  private static let context =
    #"{"operation": "push", "container": [390, 844], "hint": {"a": 1}, "duration": 9,"#
    + #" "from": {"layers": [{"id": "a", "frame": [0, 0, 10, 10]}]}, "to": {}}"#

  private func begin(_ members: String) throws -> BeginRequest {
    let line = #"{"op": "begin", "context": \#(Self.context)\#(members)}"#
    do {
      return try BeginRequest(try Request(line: Array(line.utf8)))
    } catch let error as RequestError {
      throw error.error
    }
  }

  @Test func theContextGoesAsTheRequestWroteIt() throws {
    let request = try begin("")
    #expect(
      String(decoding: request.contextJSON(reduceMotion: false), as: UTF8.self) == Self.context)
  }

  @Test func durationParamsAndTouchAreAddedOverTheContextsOwn() throws {
    let request = try begin(
      #", "duration": 2, "params": {"k": 0.5}, "interactive": true, "touch": [3, 4]"#)
    let sent = try JSONValue(parsing: request.contextJSON(reduceMotion: false))
    var expected = try JSONValue(parsing: Array(Self.context.utf8)).objectValue ?? [:]
    expected["duration"] = .number(2)
    expected["params"] = .object(["k": .number(0.5)])
    expected["touch"] = .array([.number(3), .number(4)])
    #expect(sent == .object(expected))
    let read = try TransitionContext(json: sent)
    var validated = request.context
    validated.hints = read.hints
    #expect(read == validated)
    #expect(read.hints["hint"] == .object(["a": .number(1)]))
    #expect(read.hints["duration"] == .number(2))
  }

  @Test func reduceMotionOfTheBeginWinsOverTheContextsAndIsSentResolved() throws {
    #expect(try begin("").reduceMotion == nil)
    let request = try begin(#", "reduceMotion": true"#)
    #expect(request.reduceMotion == true)
    let sent = try JSONValue(parsing: request.contextJSON(reduceMotion: true))
    #expect(sent.objectValue?["reduceMotion"] == .bool(true))
  }

  /// The fallback, which runs in the daemon, is handed the decoded context; the host reads the
  /// text. Both routes give an animator the same context, whatever the request adds.
  @Test(arguments: [
    "",
    #", "duration": 2, "params": {"k": 0.5, "j": 1e-7}, "interactive": true, "touch": [3.25, 4]"#,
    #", "reduceMotion": true, "duration": 0.1"#,
  ])
  func theDecodedContextIsTheOneItsTextReadsAs(_ members: String) throws {
    let request = try begin(members)
    for reduceMotion in [false, true] {
      let read = try TransitionContext(jsonBytes: request.contextJSON(reduceMotion: reduceMotion))
      #expect(request.animatorContext(reduceMotion: reduceMotion) == read)
    }
  }

  @Test func aReduceMotionThatIsNotABooleanIsRefused() throws {
    #expect(throws: WireError.self) { try self.begin(#", "reduceMotion": 1"#) }
  }
}
