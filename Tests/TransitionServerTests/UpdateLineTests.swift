import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

@testable import TransitionServer

/// ``UpdateLine``, the `update` read without a tree, against the general path (``Request``,
/// then the `update` record's member check and its reads): every line it takes means there what it reads, and it takes every
/// update whose meaning is plain; and the control reply written straight is the bytes the
/// general reply writer gives.
@Suite struct UpdateLineTests {
  /// Each member's spellings: a valid value, values of other types or out of range, text that
  /// is not JSON, and nil for the member left out.
  private static let spellings: [(name: String, values: [String?])] = [
    ("op", [#""update""#, #""upd\u0061te""#, #""seek""#, "5", nil]),
    ("session", [#""s1""#, #""s\"q\u00e9""#, "4", "null", nil]),
    ("progress", ["0.5", "-0", "1e-3", "2E2", #""half""#, "null", "1e400", nil]),
    (
      "touch", ["[10,20]", "[ -3.5 , 1e6 ]", "[1e7,0]", "[1,2,3]", "[1]", "[1,\"2\"]", "null", nil]
    ),
    ("id", ["7", "9007199254740993", #""a\u00e9""#, "null", "[1]", "{}", nil]),
    ("velocity", ["1", nil]),
  ]

  /// Every combination of the spellings, members in order and reversed, compact and spaced.
  private static func lines() -> [String] {
    var combinations: [[(String, String)]] = [[]]
    for (name, values) in spellings {
      combinations = combinations.flatMap { members in
        values.map { value in value.map { members + [(name, $0)] } ?? members }
      }
    }
    return combinations.flatMap { members -> [String] in
      let compact = members.map { #""\#($0.0)":\#($0.1)"# }
      let spaced = members.reversed().map { #" "\#($0.0)" : \#($0.1) "# }
      return [
        "{" + compact.joined(separator: ",") + "}", " {" + spaced.joined(separator: ",") + "}\t",
      ]
    }
  }

  /// What the general path makes of `line` when it is an update it accepts.
  private func generalUpdate(_ line: [UInt8]) -> (
    session: String, control: SessionControl, id: RequestID?
  )? {
    guard let request = try? Request(line: line), request.op == "update",
      let record = try? OpRecord.named(request.op),
      (try? request.allowOnly(record.members, of: record.op)) != nil,
      let session = try? request.requiredString("session"),
      let control = try? SessionControl.update(reading: request)
    else { return nil }
    return (session, control, request.id)
  }

  @Test func takesOnlyWhatTheGeneralPathReadsTheSameAndEveryPlainUpdate() throws {
    let lines = Self.lines()
    #expect(lines.count > 40_000)
    var taken = 0
    for text in lines {
      let line = Array(text.utf8)
      let fast = line.withUnsafeBufferPointer(UpdateLine.init)
      let general = generalUpdate(line)
      if let fast {
        taken += 1
        let general = try #require(general, "\(text)")
        #expect(general.session == fast.session, "\(text)")
        #expect(
          general.control == .update(progress: fast.progress, touch: fast.touch), "\(text)")
        #expect(general.id == fast.id, "\(text)")
      } else if general != nil {
        // Declined although valid: only where a member is null, which the general path
        // reads as absent.
        #expect(text.contains("null"), "an update the fast path declines: \(text)")
      }
    }
    #expect(taken > 500)
  }

  @Test func declinesRepeatedMembersAndWhatIsNotOneObject() {
    let declined = [
      #"{"op":"update","session":"s1","progress":0.5,"progress":0.6}"#,
      #"{"op":"update","op":"update","session":"s1","progress":0.5}"#,
      #"{"op":"update","session":"s1","progress":0.5,"id":1,"id":2}"#,
      #"{"op":"update","session":"s1","session":"s2","progress":0.5}"#,
      #"{"op":"update","session":"s1","touch":[1,2],"touch":[3,4]}"#,
      #"{"op":"update","session":"s1","progress":0.5} {}"#,
      #"{"op":"update","session":"s1","progress":0.5"#,
      #"[{"op":"update","session":"s1","progress":0.5}]"#,
      #"{"op":"update","session":"s1"}"#,
      #"{"op":"update","session":"s1","progress":0.5,}"#,
      "",
    ]
    for text in declined {
      #expect(Array(text.utf8).withUnsafeBufferPointer(UpdateLine.init) == nil, "\(text)")
    }
  }

  @Test func theControlReplyIsTheGeneralReplysBytes() throws {
    // An id kept as spelled, which no Double holds.
    let spelled = try Request(line: Array(#"{"op":"hello","id":9007199254740993}"#.utf8)).id
    let ids: [RequestID?] = [
      nil, RequestID(.number(7)), spelled, RequestID(.string("a\"é\n")), RequestID(.null),
    ]
    for id in ids {
      for followed in [nil, "progress", "touch"] {
        for progress in [0, 0.5, 1, 1e-7, 1.0 / 3] {
          for (session, state) in [("s1", "interactive"), ("q\"\\\u{1}é", "running")] {
            var members: [String: JSONValue] = [
              "session": .string(session), "state": .string(state), "progress": .number(progress),
            ]
            if let followed { members["followed"] = .string(followed) }
            let straight = WireMessage.controlReply(
              id: id, session: session, state: state, progress: progress, followed: followed)
            #expect(straight == WireMessage.success(id: id, members))
          }
        }
      }
    }
  }
}
