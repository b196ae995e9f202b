import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// What a hostile client sends: numbers at and past every bound, huge velocities, control
/// characters in ids, ids no Double holds. Each request gets a clear reply, and the daemon
/// keeps serving every client afterwards.
@Suite struct DaemonHostileInputTests {
  /// Sends `line`, returns the reply, and checks that the daemon still answers this client and
  /// a new one.
  private func reply(to line: String, on daemon: DaemonProcess, _ client: DaemonClient) throws
    -> Reply
  {
    try client.sendLine(line)
    let reply = try client.nextReply(timeout: .seconds(20))
    #expect(try client.hello().server == "transitiond", "after \(line)")
    #expect(try daemon.client().hello().server == "transitiond", "after \(line)")
    return reply
  }

  /// A `begin` line for album-flip's push with the cover at `coverFrame` (JSON text) and
  /// `container` (JSON text).
  private func albumPush(coverFrame: String, container: String = "[390,844]") -> String {
    #"{"id":1,"op":"begin","context":{"operation":"push","container":"# + container
      + #","selected":"cover","from":{"layers":[{"id":"cover","frame":"# + coverFrame
      + #"}]},"to":{"layers":[{"id":"photo","frame":[0,94,128,128]}]}}}"#
  }

  @Test func hugeCoordinateIsRefusedNamingTheField() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    // A photo cell at x = 2e154: its squared distance overflowed, album-flip built a Range
    // from NaN bounds and trapped, taking the daemon down.
    let line = albumPush(coverFrame: "[16,107,171,171]").replacingOccurrences(
      of: "[0,94,128,128]", with: "[2e154,94,128,128]")
    let reply = try reply(to: line, on: daemon, client)
    #expect(reply.errorCode == "invalid_context")
    #expect(reply.errorMessage?.contains("context.to.layers[0].frame[0]") == true)
  }

  @Test(arguments: [
    ("[0,0,1e7,10]", "[390,844]", "context.from.layers[0].frame[2]"),
    ("[0,-1000001,10,10]", "[390,844]", "context.from.layers[0].frame[1]"),
    ("[0,0,10,10]", "[1e300,844]", "context.container[0]"),
    ("[0,0,10,10]", "[390,1e6000]", "number out of range"),
  ])
  func outOfBoundsNumbersAreRefused(frame: String, container: String, field: String) throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let reply = try reply(
      to: albumPush(coverFrame: frame, container: container), on: daemon, client)
    #expect(reply.errorCode == (field.hasPrefix("context") ? "invalid_context" : "invalid_json"))
    #expect(reply.errorMessage?.contains(field) == true, "\(reply.errorMessage ?? "")")
  }

  @Test func contextDurationOutOfRangeIsRefused() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let line = albumPush(coverFrame: "[16,107,171,171]").replacingOccurrences(
      of: #""operation":"push""#, with: #""operation":"push","duration":1e300"#)
    let reply = try reply(to: line, on: daemon, client)
    #expect(reply.errorCode == "invalid_context")
    #expect(reply.errorMessage?.contains("context.duration") == true)
  }

  /// Contexts at the edges of every bound (largest, smallest, subnormal, -0) through every
  /// animator: each is served, or fails with a message (`failure`) and falls back to
  /// default-slide, and every frame is all numbers. zoom-present's data file divides the cell
  /// by a subnormal container, a value that is not finite (docs/animators.md); cube-turn's
  /// perspective, an eye two widths away, passes the timeline's bounds on a 1e-300 container.
  @Test(
    arguments: [
      ("album-flip", "push", "[1000000,-1000000,5e-324,1e-300]", "[1000000,1000000]", nil),
      ("album-flip", "pop", "[-0.0,1000000,1000000,1000000]", "[5e-324,0]", nil),
      (
        "zoom-present", "present", "[1000000,1000000,1000000,1000000]", "[5e-324,5e-324]",
        "is not finite"
      ),
      ("zoom-present", "dismiss", "[-1000000,0,1e-300,1000000]", "[1e-300,1000000]", nil),
      ("default-slide", "push", "[1000000,1000000,1000000,1000000]", "[1000000,1000000]", nil),
      ("default-slide", "present", "[-1000000,-1000000,0,0]", "[0,1000000]", nil),
      ("crossfade", "dismiss", "[1000000,-1000000,1000000,1000000]", "[1000000,0]", nil),
      ("cube-turn", "present", "[1000000,1000000,1000000,1000000]", "[1000000,1000000]", nil),
      ("cube-turn", "present", "[-1000000,0,1e-300,1000000]", "[1000000,5e-324]", nil),
      (
        "cube-turn", "dismiss", "[-1000000,0,1e-300,1000000]", "[1e-300,1000000]",
        "perspective must be within"
      ),
    ] as [(String, String, String, String, String?)])
  func extremeButValidContextsGiveFiniteFrames(
    animator: String, operation: String, frame: String, container: String, failure: String?
  ) throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let line =
      #"{"id":1,"op":"begin","animator":""# + animator + #"","context":{"operation":""#
      + operation + #"","container":"# + container + #","selected":""#
      + (operation == "pop" || operation == "dismiss" ? "c" : "a") + #"","#
      + #""from":{"layers":[{"id":"a","frame":"# + frame
      + #"},{"id":"b","frame":[1e-300,0,1000000,5e-324]}]},"#
      + #""to":{"layers":[{"id":"c","frame":"# + frame
      + #"},{"id":"d","frame":[0,-0.0,0,1000000]}]}}}"#
    let begun = try reply(to: line, on: daemon, client)
    let session = try #require(begun.fields["session"]?.stringValue, "\(begun.line)")
    if let failure {
      #expect(begun.fields["animator"]?.stringValue == "default-slide", "\(begun.line)")
      #expect(begun.fields["fallbackReason"]?.stringValue == "failed", "\(begun.line)")
      #expect(
        begun.fields["fallbackMessage"]?.stringValue?.contains(failure) == true, "\(begun.line)")
    } else {
      #expect(begun.fields["animator"]?.stringValue == animator, "\(begun.line)")
    }
    _ = try client.request([
      "op": "subscribe", "session": .string(session), "fps": 30, "clock": "virtual",
    ])
    var frames = 0
    while true {
      let event = try client.event()
      if case .complete = event { break }
      let text = event.line
      #expect(!text.contains("null") && !text.contains("nan") && !text.contains("inf"), "\(text)")
      frames += 1
    }
    #expect(frames > 1)
  }

  @Test func hugeReleaseVelocityIsRefusedAndProgressStaysInRange() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    for op in ["finish", "cancel"] {
      let session = try client.begin(context: DaemonScenes.present(), interactive: true).session
      _ = try client.request(["op": "update", "session": .string(session), "progress": 0.5])
      let refused = try reply(
        to: #"{"id":2,"op":""# + op + #"","session":""# + session + #"","velocity":1e300}"#,
        on: daemon, client)
      #expect(refused.errorCode == "bad_request")
      #expect(refused.errorMessage?.contains("velocity") == true)
      // The largest velocity accepted: the spring overshoots, reported progress does not.
      let accepted = try client.request([
        "op": .string(op), "session": .string(session), "velocity": op == "finish" ? 100 : -100,
      ])
      #expect(
        accepted.fields["state"]?.stringValue == (op == "finish" ? "finishing" : "cancelling"))
      for _ in 0..<20 {
        let listed = try client.sessions()
        for entry in listed {
          #expect(entry.progress >= 0 && entry.progress <= 1, "\(entry.progress)")
        }
        if listed.isEmpty { break }
        usleep(20_000)
      }
    }
  }

  @Test(arguments: ["a\u{7F}b", "a\u{85}b", "a\u{2028}b", "a\u{200B}b", "a\u{202E}b", "\u{1}"])
  func sessionIDsWithControlCharactersAreRefused(id: String) throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let reply = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.present()), "session": .string(id),
    ])
    #expect(reply.errorCode == "bad_request")
    #expect(reply.errorMessage?.contains("control characters") == true)
    #expect(try client.sessions().isEmpty)
  }

  @Test(arguments: ["9007199254740993", "1.50", "-0", "1e2", "123456789012345678901234567890"])
  func requestIDsAreEchoedExactly(id: String) throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    for line in [#"{"id":"# + id + #","op":"hello"}"#, #"{"op":"fly","id":"# + id + "}"] {
      try client.sendLine(line)
      let reply = try client.nextReply(timeout: .seconds(20))
      #expect(reply.line.contains(#""id":"# + id + ","), "\(reply.line)")
    }
  }

  @Test func deepNestingAndLongStringsGetAnErrorOrAreCarried() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    // 30 000 levels, just under the line limit: refused at level 65, without recursing deeper.
    let deep = String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000)
    let nested = try reply(to: #"{"id":1,"op":"hello","x":"# + deep + "}", on: daemon, client)
    #expect(nested.errorCode == "invalid_json")
    let tooDeep = try reply(
      to: #"{"id":2,"op":"hello","x":"# + String(repeating: "[", count: 64)
        + String(repeating: "]", count: 64) + "}", on: daemon, client)
    #expect(tooDeep.errorMessage?.contains("nesting deeper than 64") == true)
    let longID = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.present()),
      "session": .string(String(repeating: "é", count: 65)),
    ])
    #expect(longID.errorCode == "bad_request")
    // Content nested 60 deep and a 30 000-byte layer id are carried to the frames as they are.
    var context = DaemonScenes.present()
    let content =
      String(repeating: #"{"a":"#, count: 60) + "null" + String(repeating: "}", count: 60)
    let layerID = String(repeating: "x", count: 30_000)
    context["from"] = ["layers": [["id": .string(layerID), "frame": [20, 100, 100, 100]]]]
    context["selected"] = .string(layerID)
    let request: JSONValue = [
      "id": 3, "op": "begin", "animator": "crossfade", "context": .object(context),
    ]
    let line = request.serialized.replacingOccurrences(
      of: #""selected""#, with: #""x-content":"# + content + #","selected""#)
    let begun = try reply(to: line, on: daemon, client)
    #expect(begun.ok, "\(begun.line.prefix(300))")
  }
}
