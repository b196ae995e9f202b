import Foundation
import Testing
import TransitionJSON
import TransitionWire

@testable import TransitionClient

/// The conformance vectors (Tests/Conformance, docs/conformance.md): every recorded stream,
/// decoded line by line with the client's delta applier, gives exactly the expected frames
/// of its `.expected.ndjson`. The Swift client is the reference: with
/// `TRANSITIOND_CONFORMANCE_WRITE=1` (`make conformance`) the test writes the expected files
/// instead of checking them.
@Suite struct ConformanceVectorTests {
  static let directory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Conformance")

  /// The recorded streams: every `.ndjson` that is not an expected file.
  static var streams: [URL] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".ndjson") && !$0.hasSuffix(".expected.ndjson") }
      .sorted().map { directory.appendingPathComponent($0) }
  }

  static func expectedURL(of stream: URL) -> URL {
    stream.deletingPathExtension().appendingPathExtension("expected.ndjson")
  }

  /// One expected line per stream line: a frame's whole frame, any other event as it is.
  /// After `stopping` the connection ends and a client starts afresh (a new applier).
  static func expectedLines(of stream: URL) throws -> [String] {
    let text = try String(contentsOf: stream, encoding: .utf8)
    var applier = FrameDeltaApplier()
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
      let fields = try #require(try JSONValue(parsing: line).objectValue)
      let event = try Event(fields: fields, line: line, applier: &applier)
      switch event {
      case .frame(let frame):
        lines.append(JSONValue.object(frame.fields).serialized)
      case .stopping:
        applier = FrameDeltaApplier()
        lines.append(line)
      default:
        lines.append(line)
      }
    }
    return lines
  }

  @Test func theSuiteCoversEveryExampleSceneAndTheLiveCases() throws {
    let names = Set(Self.streams.map(\.lastPathComponent))
    let scenes = try FileManager.default.contentsOfDirectory(
      atPath: Self.directory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("config/scenes").path
    ).filter { $0.hasSuffix(".json") }
    #expect(!scenes.isEmpty)
    for scene in scenes {
      let name = String(scene.dropLast(".json".count))
      #expect(names.contains("\(name).full.ndjson"), "no full vector of \(name)")
      #expect(names.contains("\(name).delta.ndjson"), "no delta vector of \(name)")
    }
    for live in [
      "wall-clock.full", "wall-clock.delta", "resync.delta", "touch.delta", "cancel.delta",
      "restart.delta",
    ] {
      #expect(names.contains("\(live).ndjson"), "no vector \(live)")
    }
  }

  @Test(arguments: streams)
  func everyFrameIsTheExpectedWholeFrame(stream: URL) throws {
    let lines = try Self.expectedLines(of: stream)
    let expectedURL = Self.expectedURL(of: stream)
    if ProcessInfo.processInfo.environment["TRANSITIOND_CONFORMANCE_WRITE"] == "1" {
      try (lines.joined(separator: "\n") + "\n").write(
        to: expectedURL, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: expectedURL, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    try #require(expected.count == lines.count, "\(stream.lastPathComponent): line count")
    for (index, (got, want)) in zip(lines, expected).enumerated() {
      #expect(
        try JSONValue(parsing: got) == JSONValue(parsing: want),
        "\(stream.lastPathComponent) line \(index + 1)")
    }
  }

  /// A delta vector rebuilds exactly the frames of the full vector of the same session.
  @Test(arguments: streams.filter { $0.lastPathComponent.hasSuffix(".delta.ndjson") })
  func aVirtualDeltaStreamRebuildsItsFullStream(delta: URL) throws {
    let name = delta.lastPathComponent.dropLast(".delta.ndjson".count)
    let full = Self.directory.appendingPathComponent("\(name).full.ndjson")
    guard FileManager.default.fileExists(atPath: full.path), !name.hasPrefix("wall") else {
      return
    }
    let rebuilt = try Self.expectedLines(of: delta).filter { $0.contains(#""event":"frame""#) }
    let frames = try Self.expectedLines(of: full).filter { $0.contains(#""event":"frame""#) }
    #expect(rebuilt.count == frames.count)
    for (index, (got, want)) in zip(rebuilt, frames).enumerated() {
      #expect(try JSONValue(parsing: got) == JSONValue(parsing: want), "\(name) frame \(index)")
    }
  }
}
