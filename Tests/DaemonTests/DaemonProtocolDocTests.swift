import Foundation
import Glibc
import Testing
import UnixIO

@testable import IntegrationSupport

/// Runs every example of docs/protocol.md against the real daemon.
///
/// An example is a fenced block tagged `ndjson`: `→ ` lines are sent as they are, each `← `
/// line must match the next line the daemon sends (as JSON: same members, in any order; the
/// string `"…"` stands for any value). Each example runs on a fresh daemon.
@Suite struct DaemonProtocolDocTests {
  /// docs/protocol.md, found from this file's place in the repository.
  static let documentPath: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("docs/protocol.md").path
  }()

  /// The examples: each a list of lines starting with `→ ` or `← `.
  static func examples() throws -> [[String]] {
    let text = try String(contentsOfFile: documentPath, encoding: .utf8)
    var examples: [[String]] = []
    var current: [String]?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if current == nil, line.trimmingCharacters(in: .whitespaces) == "```ndjson" {
        current = []
      } else if let lines = current, line.hasPrefix("```") {
        examples.append(lines)
        current = nil
      } else if current != nil, line.hasPrefix("→ ") || line.hasPrefix("← ") {
        current?.append(String(line))
      }
    }
    return examples
  }

  @Test func theDocumentHasExamples() throws {
    let examples = try Self.examples()
    #expect(examples.count >= 10)
    #expect(examples.allSatisfy { $0.first?.hasPrefix("→ ") == true })
  }

  @Test func everyExampleRunsAsShown() throws {
    for (index, example) in try Self.examples().enumerated() {
      let daemon = try DaemonProcess()
      let socket = try BlockingLineSocket(path: daemon.socketPath)
      for line in example {
        let payload = String(line.dropFirst(2))
        if line.hasPrefix("→ ") {
          try socket.send(payload)
        } else {
          let actual = try socket.daemonLine()
          let matches = try Self.matches(expected: payload, actual: actual)
          #expect(matches, "example \(index + 1): expected \(payload)\n   got \(actual)")
          if !matches { break }
        }
      }
    }
  }

  /// Whether `actual` has the same JSON structure and values as `expected`, where `"…"`
  /// matches anything.
  static func matches(expected: String, actual: String) throws -> Bool {
    let want = try JSONSerialization.jsonObject(
      with: Data(expected.utf8), options: [.fragmentsAllowed])
    let got = try JSONSerialization.jsonObject(
      with: Data(actual.utf8), options: [.fragmentsAllowed])
    return same(want, got)
  }

  private static func same(_ want: Any, _ got: Any) -> Bool {
    if let wildcard = want as? String, wildcard == "…" { return true }
    switch (want, got) {
    case (let want as [String: Any], let got as [String: Any]):
      return Set(want.keys) == Set(got.keys)
        && want.allSatisfy { key, value in got[key].map { same(value, $0) } ?? false }
    case (let want as [Any], let got as [Any]):
      return want.count == got.count && zip(want, got).allSatisfy { same($0, $1) }
    case (let want as NSNumber, let got as NSNumber):
      return want == got
    case (let want as String, let got as String):
      return want == got
    case (is NSNull, is NSNull):
      return true
    default:
      return false
    }
  }
}

/// The daemon's lines, strictly in order, as text, over the shared blocking client: a line
/// that does not come within 20 seconds, or the end of the stream, is a
/// ``DaemonHarnessError``.
extension BlockingLineSocket {
  /// Sends `line` and a `\n`.
  func send(_ line: String) throws {
    try send(line: line)
  }

  /// Sends `text` exactly as given (no `\n` added): half a line, for example.
  func sendRaw(_ text: String) throws {
    try write(text)
  }

  /// The next line when one has arrived, without waiting; nil when none has.
  func daemonLineIfAvailable() throws -> String? {
    try readLineIfAvailable().map { String(decoding: $0, as: UTF8.self) }
  }

  /// The next line, without its `\n`.
  func daemonLine() throws -> String {
    let line = try? readLine(deadline: .now + .seconds(20))
    guard let line = line ?? nil else {
      throw DaemonHarnessError("the daemon sent no line (closed or timed out)")
    }
    return String(decoding: line, as: UTF8.self)
  }
}
