import Testing

@testable import TransitionClient

/// Decoding unsolicited events: each known event with its fields, unknown events passed
/// through, and known events with missing or mistyped fields refused as `malformed`.
@Suite struct EventDecodingTests {
  @Test func frameEventKeepsItsFieldsAndLine() throws {
    let line =
      #"{"event":"frame","session":"s1","seq":3,"t":0.05,"progress":0.125,"layers":[{"id":"a","alpha":0.5},{"id":"b"}]}"#
    guard case .frame(let frame) = try decodedEvent(line) else {
      Issue.record("not a frame")
      return
    }
    #expect(frame.session == "s1")
    #expect(frame.seq == 3)
    #expect(frame.t == 0.05)
    #expect(frame.progress == 0.125)
    #expect(frame.layers.count == 2)
    #expect(frame.layers[0]["id"]?.stringValue == "a")
    #expect(frame.line == line)
    #expect(try decodedEvent(line).line == line)
    #expect(try decodedEvent(line).session == "s1")
  }

  @Test func completeEventReadsFinished() throws {
    let line = #"{"event":"complete","session":"s2","finished":false}"#
    guard case .complete(let complete) = try decodedEvent(line) else {
      Issue.record("not a complete")
      return
    }
    #expect(complete.session == "s2")
    #expect(complete.finished == false)
    #expect(complete.line == line)
  }

  @Test func beginEventReadsItsFields() throws {
    let line =
      #"{"event":"begin","session":"s3","animator":"album-flip","operation":"push","duration":0.6}"#
    guard case .begin(let begin) = try decodedEvent(line) else {
      Issue.record("not a begin")
      return
    }
    #expect(begin.session == "s3")
    #expect(begin.animator == "album-flip")
    #expect(begin.operation == "push")
    #expect(begin.duration == 0.6)
    #expect(begin.container == nil)
    #expect(begin.clock == nil)
  }

  @Test func beginEventReadsWhatDrawingNeeds() throws {
    let line =
      #"{"event":"begin","session":"s4","container":[390,844],"animator":"zoom-present","operation":"present","duration":0.5,"clock":"wall","fps":30,"interactive":true}"#
    guard case .begin(let begin) = try decodedEvent(line) else {
      Issue.record("not a begin")
      return
    }
    #expect(begin.container == [390, 844])
    #expect(begin.clock == "wall")
    #expect(begin.fps == 30)
    #expect(begin.interactive == true)
    #expect(begin.line == line)
  }

  @Test func stoppingEventHasNoSession() throws {
    let event = try decodedEvent(#"{"event":"stopping"}"#)
    guard case .stopping = event else {
      Issue.record("not stopping")
      return
    }
    #expect(event.session == nil)
    #expect(event.line == #"{"event":"stopping"}"#)
  }

  @Test func unknownEventsPassThrough() throws {
    let line = #"{"event":"hint","session":"s9","text":"hello"}"#
    let event = try decodedEvent(line)
    guard case .other(let name, let fields, let kept) = event else {
      Issue.record("not passed through")
      return
    }
    #expect(name == "hint")
    #expect(fields["text"]?.stringValue == "hello")
    #expect(kept == line)
    #expect(event.session == "s9")
  }

  @Test(arguments: [
    #"{"event":3}"#,
    #"{"event":"frame","session":"s1","seq":1.5,"t":0,"progress":0,"layers":[]}"#,
    #"{"event":"frame","session":"s1","seq":1,"t":"0","progress":0,"layers":[]}"#,
    #"{"event":"frame","session":"s1","seq":1,"t":0,"progress":true,"layers":[]}"#,
    #"{"event":"frame","session":"s1","seq":1,"t":0,"progress":0,"layers":[1]}"#,
    #"{"event":"frame","seq":1,"t":0,"progress":0,"layers":[]}"#,
    #"{"event":"complete","session":"s1"}"#,
    #"{"event":"complete","session":"s1","finished":1}"#,
    #"{"event":"begin","session":"s1","animator":"a","operation":"push"}"#,
  ])
  func malformedEventsAreRefused(line: String) throws {
    let fields = try decodedFields(line)
    let error = try #require(
      caughtClientError { () throws(ClientError) in
        _ = try Event(fields: fields, line: line)
      })
    #expect(error.code == .malformed)
    #expect(error.message.hasPrefix("event."), "\(error.message)")
  }

  @Test func malformedMessageNamesTheField() throws {
    let line = #"{"event":"frame","session":"s1","seq":1,"t":0,"progress":0,"layers":[{},2]}"#
    let fields = try decodedFields(line)
    let error = try #require(
      caughtClientError { () throws(ClientError) in
        _ = try Event(fields: fields, line: line)
      })
    #expect(error.message == "event.layers[1] is missing or not an object")
  }
}
