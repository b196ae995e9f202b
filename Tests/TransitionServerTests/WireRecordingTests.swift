import Foundation
import Testing
import TransitionJSON
import TransitionServerTesting

@testable import TransitionServer

/// The bytes the frame path sends, compared with recordings kept under
/// `Tests/Fixtures/wire-recordings` (its README says how they are made): every example scene
/// of `config/scenes` with its named animator, the example plugins on two of them, and an
/// interactive session, each played on a ``FakeClock`` to full, delta, late, slow and virtual
/// subscribers at once. A change to the frame path that changes one byte a subscriber gets
/// fails here.
///
/// With `TRANSITIOND_RECORD_WIRE=1` in the environment the test writes the recordings instead
/// of comparing them.
@Suite struct WireRecordingTests {
  /// One recording: a scene file of `config/scenes`, and the animator to play it with (the
  /// scene's own when nil).
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var scene: String
    var animator: String? = nil

    var description: String { name }
  }

  static let repository = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let recordings = repository.appendingPathComponent("Tests/Fixtures/wire-recordings")
  static let isRecording = ProcessInfo.processInfo.environment["TRANSITIOND_RECORD_WIRE"] == "1"

  /// Every example scene with its animator, then the example plugins.
  static let cases: [Case] = {
    let scenes =
      (try? FileManager.default.contentsOfDirectory(
        atPath: repository.appendingPathComponent("config/scenes").path)) ?? []
    let named = scenes.filter { $0.hasSuffix(".json") }.sorted().map {
      Case(name: String($0.dropLast(".json".count)), scene: $0)
    }
    return named + [
      Case(
        name: "plugin-cube-turn-present", scene: "default-slide-present.json", animator: "cube-turn"
      ),
      Case(
        name: "plugin-crossfade-present", scene: "zoom-present-present.json",
        animator: "crossfade"),
    ]
  }()

  @Test func theExampleScenesAreAllRecorded() {
    #expect(Self.cases.count >= 23)
  }

  @Test(arguments: cases) func aSceneStreamsTheRecordedBytes(_ recording: Case) throws {
    let bytes = try Self.play(recording)
    try Self.compare(bytes, with: "\(recording.name).ndjson")
  }

  @Test func anInteractiveSessionStreamsTheRecordedBytes() throws {
    try Self.compare(Self.playInteractive(), with: "interactive-crossfade.ndjson")
  }

  /// Compares `bytes` with the recording `file`, or writes them there when recording.
  static func compare(
    _ bytes: [UInt8], with file: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let url = recordings.appendingPathComponent(file)
    if isRecording {
      try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
      try Data(bytes).write(to: url)
      return
    }
    let recorded = try [UInt8](Data(contentsOf: url))
    guard recorded != bytes else { return }
    // Name the first line that differs, which is what a reader of the failure needs.
    let got = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let want = recorded.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    let common = min(got.count, want.count)
    let line = (0..<common).first { got[$0] != want[$0] } ?? common
    let text = { (lines: [ArraySlice<UInt8>]) in
      line < lines.count ? String(decoding: lines[line], as: UTF8.self) : "(none)"
    }
    Issue.record(
      "\(file) differs at line \(line + 1):\n got:  \(text(got))\n want: \(text(want))",
      sourceLocation: sourceLocation)
  }

  /// The context and animator a scene file begins with (as `transitionctl play` sends it: the
  /// scene's own keys taken out).
  static func beginLine(_ recording: Case) throws -> String {
    let url = repository.appendingPathComponent("config/scenes/\(recording.scene)")
    guard case .object(var scene) = try JSONValue(parsing: [UInt8](Data(contentsOf: url))) else {
      throw RecordingError("\(recording.scene) is not an object")
    }
    let animator = recording.animator ?? scene["animator"]?.stringValue ?? ""
    for key in ["animator", "description", "duration", "interactive", "hints"] {
      scene.removeValue(forKey: key)
    }
    return
      #"{"op":"begin","animator":"\#(animator)","context":\#(JSONValue.object(scene).serialized)}"#
  }

  /// Plays one scene on a fake clock and returns what each subscriber got, one section a
  /// subscriber:
  /// - `full`, `delta`: wall clock, 60 fps, from the start, reading every frame;
  /// - `slow-full`, `slow-delta`: the same stream, reading nothing until half way, so that
  ///   their frames are coalesced, then drained (the delta one gets a key frame) and read;
  /// - `late-delta`: joins a third of the way in (a key frame), asks `resync` two thirds in;
  /// - `virtual-full`, `virtual-delta`: virtual clock, 30 fps, read in batches as they drain;
  ///   the delta one asks `resync` after its second batch.
  static func play(_ recording: Case) throws -> [UInt8] {
    let harness = CoreHarness(limits: .changed { $0.subscriberSoftLimitBytes = 4_096 })
    let owner = harness.connect()
    let reply = harness.reply(try beginLine(recording), from: owner)
    guard let session = reply["session"]?.stringValue,
      let duration = reply["duration"]?.numberValue
    else { throw RecordingError("begin failed: \(reply)") }
    let start = harness.clock.now

    var sections: [(name: String, peer: FakePeer, bytes: [UInt8])] = []
    func subscribe(_ name: String, _ members: String) -> Int {
      let peer = harness.connect()
      sections.append((name, peer, []))
      harness.core.receive(
        line: Array(#"{"op":"subscribe","session":"\#(session)"\#(members)}"#.utf8), from: peer)
      return sections.count - 1
    }
    func read(_ index: Int) {
      sections[index].bytes += sections[index].peer.readBytes()
    }
    /// The subscription number of a section's `subscribe` reply, its first line.
    func subscription(_ index: Int) -> Int {
      let first = sections[index].bytes.prefix { $0 != UInt8(ascii: "\n") }
      return Int((try? JSONValue(parsing: Array(first)))?["subscription"]?.numberValue ?? -1)
    }
    let full = subscribe("full", #","fps":60"#)
    let delta = subscribe("delta", #","fps":60,"encoding":"delta""#)
    let slowFull = subscribe("slow-full", #","fps":60"#)
    let slowDelta = subscribe("slow-delta", #","fps":60,"encoding":"delta""#)
    // Virtual readings of the same session, read only once the wall streams are done (their
    // frames wait for the reader; the session keeps its timeline for them).
    let virtualFull = subscribe("virtual-full", #","fps":30,"clock":"virtual""#)
    let virtualDelta = subscribe(
      "virtual-delta", #","fps":30,"clock":"virtual","encoding":"delta""#)
    var reading = [full, delta]
    for index in reading { read(index) }
    let readAll = { for index in reading { read(index) } }

    harness.clock.advance(to: start + duration / 3, afterEach: readAll)
    let late = subscribe("late-delta", #","fps":60,"encoding":"delta""#)
    reading.append(late)
    readAll()

    harness.clock.advance(to: start + duration / 2, afterEach: readAll)
    for index in [slowFull, slowDelta] {
      read(index)
      harness.core.peerDrained(sections[index].peer)
      read(index)
      reading.append(index)
    }

    harness.clock.advance(to: start + 2 * duration / 3, afterEach: readAll)
    harness.core.receive(
      line: Array(#"{"op":"resync","subscription":\#(subscription(late))}"#.utf8),
      from: sections[late].peer)
    readAll()
    harness.clock.advance(to: start + duration + 1, afterEach: readAll)

    for index in [virtualFull, virtualDelta] {
      let peer = sections[index].peer
      read(index)
      harness.core.peerDrained(peer)
      read(index)
      var batches = 0
      while !sections[index].bytes.isEmpty, batches < 10_000,
        !sections[index].bytes.ends(with: Array(#""event":"complete""#.utf8), within: 64)
      {
        batches += 1
        if index == virtualDelta, batches == 2 {
          harness.core.receive(
            line: Array(#"{"op":"resync","subscription":\#(subscription(index))}"#.utf8),
            from: peer)
        }
        harness.core.peerDrained(peer)
        read(index)
      }
    }

    var out: [UInt8] = []
    for section in sections {
      out += Array("# \(section.name)\n".utf8)
      out += section.bytes
    }
    return out
  }

  /// An interactive crossfade driven by `update`, `pause`, `resume` and `finish`, to a full
  /// and a delta subscriber at 30 fps.
  static func playInteractive() throws -> [UInt8] {
    let harness = CoreHarness()
    let owner = harness.connect()
    let reply = harness.reply(
      CoreHarness.beginCrossfadeLine(duration: 0.5, extra: #","interactive":true"#), from: owner)
    guard let session = reply["session"]?.stringValue else {
      throw RecordingError("begin failed: \(reply)")
    }
    let full = harness.connect()
    let delta = harness.connect()
    var out: [UInt8] = []
    func send(_ line: String, from peer: FakePeer) {
      harness.core.receive(line: Array(line.utf8), from: peer)
    }
    send(#"{"op":"subscribe","session":"\#(session)","fps":30}"#, from: full)
    send(#"{"op":"subscribe","session":"\#(session)","fps":30,"encoding":"delta"}"#, from: delta)
    var got: [[UInt8]] = [full.readBytes(), delta.readBytes()]
    let readBoth = {
      got[0] += full.readBytes()
      got[1] += delta.readBytes()
    }
    for progress in [0.1, 0.25, 0.25, 0.6] {
      harness.clock.advance(to: harness.clock.now + 0.02, afterEach: readBoth)
      send(#"{"op":"update","session":"\#(session)","progress":\#(progress)}"#, from: owner)
      readBoth()
    }
    send(#"{"op":"finish","session":"\#(session)"}"#, from: owner)
    readBoth()
    harness.clock.advance(to: harness.clock.now + 0.1, afterEach: readBoth)
    send(#"{"op":"pause","session":"\#(session)"}"#, from: owner)
    readBoth()
    harness.clock.advance(to: harness.clock.now + 0.1, afterEach: readBoth)
    send(#"{"op":"resume","session":"\#(session)"}"#, from: owner)
    readBoth()
    harness.clock.advance(to: harness.clock.now + 2, afterEach: readBoth)
    out += Array("# owner\n".utf8) + owner.readBytes()
    out += Array("# full\n".utf8) + got[0]
    out += Array("# delta\n".utf8) + got[1]
    return out
  }
}

struct RecordingError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

extension [UInt8] {
  /// Whether `needle` occurs in the last `count` bytes.
  fileprivate func ends(with needle: [UInt8], within count: Int) -> Bool {
    suffix(count).firstRange(of: needle) != nil
  }
}
