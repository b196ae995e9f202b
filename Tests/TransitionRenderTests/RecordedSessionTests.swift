import Testing

@testable import TransitionRender

/// Reading what rendering needs from a recording, and refusing what it cannot render.
@Suite struct RecordedSessionTests {
  static let begin =
    #"{"event":"begin","session":"s1","container":[390,844],"fps":30,"animator":"album-flip"}"#
  static func frame(_ session: String, _ t: Double) -> String {
    #"{"event":"frame","session":"\#(session)","seq":0,"t":\#(t),"progress":0,"layers":[]}"#
  }

  @Test func readsTheContainerTheRateAndTheInstantsOfTheFirstSession() throws {
    let text = [
      Self.begin, Self.frame("s1", 0), Self.frame("s2", 9), Self.frame("s1", 0.5),
      #"{"event":"complete","session":"s1","finished":true}"#, "",
    ].joined(separator: "\n")
    let session = try RecordedSession(recording: Array(text.utf8), session: nil)
    #expect(session.id == "s1")
    #expect(session.container.width == 390 && session.container.height == 844)
    #expect(session.fps == 30)
    #expect(session.instants == [0, 0.5])
  }

  @Test func refusesWhatCannotBeRendered() {
    func failure(_ lines: [String], session: String? = nil) -> String {
      do {
        _ = try RecordedSession(
          recording: Array(lines.joined(separator: "\n").utf8), session: session)
        return "accepted"
      } catch {
        return error.description
      }
    }
    #expect(failure([Self.frame("s1", 0)]).contains("no begin event"))
    #expect(failure([Self.begin]).contains("has no frames"))
    #expect(failure([]).contains("empty"))
    #expect(failure([Self.begin, "{oops"]).contains("line 2 is not JSON"))
    #expect(failure([Self.begin, Self.frame("s1", 0)], session: "s9").contains("no session s9"))
    #expect(
      failure([#"{"event":"begin","session":"s1"}"#, Self.frame("s1", 0)]).contains("container"))
  }
}
