import Foundation
import Testing
import TransitionWire

/// `Op` is the one list of op names: it matches docs/protocol.md's headings and examples.
@Suite struct OpTests {
  private static let protocolText: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    return
      (try? String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8))
      ?? ""
  }()

  @Test func everyOpHasAHeadingInTheProtocol() {
    let headings = Self.protocolText.split(separator: "\n").filter { $0.hasPrefix("### ") }
    #expect(!headings.isEmpty)
    for op in Op.allCases {
      let named = headings.contains { heading in
        heading.split(whereSeparator: { !$0.isLetter }).contains { $0 == op.rawValue }
      }
      #expect(named, "docs/protocol.md has no heading naming \(op.rawValue)")
    }
  }

  @Test func everyOpInTheProtocolsExamplesIsKnown() throws {
    let pattern = try NSRegularExpression(pattern: #""op":"([a-z]+)""#)
    let text = Self.protocolText
    let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
    #expect(matches.count > 10)
    for match in matches {
      let name = try #require(Range(match.range(at: 1), in: text).map { String(text[$0]) })
      // `fly` is the documented example of an unknown op.
      #expect((Op(rawValue: name) != nil) == (name != "fly"), "\(name)")
    }
  }
}
