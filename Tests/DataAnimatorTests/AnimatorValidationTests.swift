import Foundation
import Testing
import TransitionJSON
import TransitionKit

@testable import DataAnimator

/// The reader finds every problem of a file and says where it is.
@Suite struct AnimatorValidationTests {
  static let minimal = #"""
    {"operations": {"push": {"duration": 1, "rules": [
      {"select": {"screen": "from"}},
      {"select": {"screen": "to"}, "tracks": [{"property": "alpha", "from": 0, "to": 1}]}
    ]}}}
    """#

  func issues(_ text: String, name: String = "fade") -> [ValidationIssue] {
    switch DataAnimator.read(Array(text.utf8), name: name, file: "\(name).json") {
    case .success: return []
    case .failure(let failure): return failure.issues
    }
  }

  @Test func aMinimalFileValidates() {
    #expect(issues(Self.minimal).isEmpty)
  }

  @Test func aNegativeLengthIsReportedWithItsLineColumnAndPointer() throws {
    let text = """
      {"operations": {"push": {"duration": 1, "rules": [
        {"select": {}, "set": {"shadow.blur": 4},
         "tracks": [{"property": "cornerRadius", "to": -6}, {"property": "border.width", "from": "-1", "to": 2}]}]}}}
      """
    let found = issues(text)
    #expect(
      found.map(\.pointer) == [
        "/operations/push/rules/0/tracks/0/to", "/operations/push/rules/0/tracks/1/from",
      ])
    let issue = try #require(found.first)
    #expect(issue.line == 3)
    #expect(issue.column == 50)
    #expect(issue.message.contains("cornerRadius must not be negative, got -6"))
  }

  @Test func aClipNamesTheContextsLayerOrAnAddedOne() throws {
    let text = """
      {"operations": {"present": {"duration": 1, "rules": [
        {"add": "window", "frame": "selected", "tracks": [{"property": "cornerRadius", "to": 0}]},
        {"select": {"screen": "to"}, "set": {"clipTo": "window", "clips": true}},
        {"add": "card", "copy": "selected", "set": {"clipTo": "selected"}}]}}}
      """
    #expect(issues(text).isEmpty)
    let unknown = issues(
      text.replacingOccurrences(of: #""clipTo": "window""#, with: #""clipTo": "nowhere""#))
    #expect(unknown.map(\.pointer) == ["/operations/present/rules/1/set/clipTo"])
    #expect(unknown.first?.message.contains("\"nowhere\"") == true)
    #expect(
      !issues(text.replacingOccurrences(of: #""clipTo": "window""#, with: #""clipTo": 3"#)).isEmpty)
  }

  @Test func anUnknownNameIsReportedWithItsLineColumnAndPointer() throws {
    let text = """
      {"params": {"spread": {"default": 0.2, "min": 0, "max": 1}},
       "operations": {"push": {"duration": 1, "rules": [
         {"select": {}, "tracks": [{"property": "alpha", "to": "spred * 2"}]}]}}}
      """
    let found = issues(text)
    #expect(found.count == 1)
    let issue = try #require(found.first)
    #expect(issue.pointer == "/operations/push/rules/0/tracks/0/to")
    #expect(issue.line == 3)
    #expect(issue.column == 58)
    #expect(issue.message.contains("unknown name \"spred\""))
    #expect(issue.message.contains("did you mean spread?"))
    #expect(issue.description.hasPrefix("fade.json:3:58: /operations/push/rules/0/tracks/0/to: "))
  }

  @Test func everyProblemIsReportedInOnePass() {
    let text = """
      {"operations": {"push": {"duration": -1, "rules": [
        {"select": {"screen": "left"}, "tracks": [{"property": "opacity", "to": 1}]},
        {"add": "Dim!", "tracks": []}]}}, "extra": true}
      """
    let pointers = Set(issues(text).map(\.pointer))
    #expect(pointers.contains("/operations/push/duration"))
    #expect(pointers.contains("/operations/push/rules/0/select/screen"))
    #expect(pointers.contains("/operations/push/rules/0/tracks/0/property"))
    #expect(pointers.contains("/operations/push/rules/1/add"))
    #expect(pointers.contains("/extra"))
  }

  /// The file's `handover` is a number of seconds in (0, 10], refused with its place otherwise.
  @Test func theHandoverIsBounded() {
    func withHandover(_ value: String) -> String {
      Self.minimal.replacingOccurrences(
        of: #"{"operations""#, with: #"{"handover": \#(value), "operations""#)
    }
    #expect(issues(withHandover("0.1")).isEmpty)
    #expect(issues(withHandover("10")).isEmpty)
    for (value, message) in [
      ("0", "must be in (0, 10] seconds, got 0"), ("10.5", "must be in (0, 10] seconds, got 10.5"),
      ("-1", "must be in (0, 10] seconds, got -1"), (#""fast""#, "must be a number"),
    ] {
      let found = issues(withHandover(value))
      #expect(found.map(\.pointer) == ["/handover"], "\(value): \(found)")
      #expect(found.first?.message == message, "\(value): \(found)")
      #expect(found.first?.description.hasPrefix("fade.json:1:14: /handover: ") == true, "\(found)")
    }
  }

  @Test func aCycleIsReportedWithItsChain() {
    let text = """
      {"let": {"a": "b + 1", "b": "c * 2", "c": "a"},
       "operations": {"push": {"duration": 1, "rules": [{"select": {}}]}}}
      """
    let found = issues(text)
    #expect(found.count == 1)
    #expect(found.first?.message.contains("a → b → c → a") == true)
  }

  @Test func layerNamesAreRefusedOutsideRules() {
    let found = issues(
      #"{"let": {"w": "layer.width"}, "operations": {"push": {"duration": 1, "rules": [{"select": {}}]}}}"#
    )
    #expect(found.first?.pointer == "/let/w")
    #expect(found.first?.message.contains("layer's name") == true)
  }

  @Test func staggerNamesNeedAStagger() {
    let found = issues(
      #"{"operations": {"push": {"duration": 1, "rules": [{"select": {}, "tracks": [{"property": "alpha", "to": "stagger"}]}]}}}"#
    )
    #expect(found.first?.message.contains("needs a \"stagger\"") == true)
  }

  @Test func aCallWithTheWrongArgumentCountIsRefused() {
    let found = issues(
      #"{"operations": {"push": {"duration": 1, "rules": [{"select": {}, "tracks": [{"property": "alpha", "to": "clamp(1, 2)"}]}]}}}"#
    )
    #expect(
      found.first?.message.contains("clamp(value, low, high) takes 3 arguments, got 2") == true)
  }

  @Test func aCallWithMoreArgumentsThanItTakesNamesTheRange() {
    let arguments = Array(repeating: "1", count: 17).joined(separator: ", ")
    let found = issues(
      #"{"operations": {"push": {"duration": 1, "rules": [{"select": {}, "tracks": [{"property": "alpha", "to": "max(\#(arguments))"}]}]}}}"#
    )
    #expect(found.first?.message.contains("takes 2 to 16 arguments, got 17") == true)
  }

  @Test func aMirrorMustNameAnOperationWithRules() {
    let found = issues(#"{"operations": {"pop": {"mirror": "push"}}}"#)
    #expect(found.first?.pointer == "/operations/pop/mirror")
  }

  @Test func theFileNameMustBeAnAnimatorName() {
    #expect(
      issues(Self.minimal, name: "My Fade").first?.message.contains("not an animator name") == true)
  }

  // MARK: Hostile files

  @Test(arguments: [
    ("truncated", #"{"operations": {"push": {"dur"#),
    ("NUL bytes", "{\"operations\": \u{0}}"),
    ("empty", ""),
    ("not an object", "[1, 2, 3]"),
    ("1e400", #"{"operations": {"push": {"duration": 1e400, "rules": []}}}"#),
    ("repeated member", #"{"operations": {}, "operations": {}}"#),
    ("deep nesting", String(repeating: "[", count: 100) + String(repeating: "]", count: 100)),
    (
      "deep selector",
      #"{"operations": {"push": {"duration": 1, "rules": [{"select": "#
        + String(repeating: #"{"not": "#, count: 20) + "{}" + String(repeating: "}", count: 20)
        + "}]}}}"
    ),
    (
      "deep expression",
      #"{"operations": {"push": {"duration": 1, "rules": [{"select": {}, "tracks": [{"property": "alpha", "to": ""#
        + String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40) + #""}]}]}}}"#
    ),
    (
      "long expression",
      #"{"operations": {"push": {"duration": 1, "rules": [{"select": {}, "tracks": [{"property": "alpha", "to": ""#
        + String(repeating: "1+", count: 600) + #"1"}]}]}}}"#
    ),
  ])
  func aHostileFileGetsAnErrorNotACrash(_ label: String, _ text: String) {
    let found = issues(text)
    #expect(!found.isEmpty, "\(label) validated")
    for issue in found {
      #expect(issue.line >= 1 && issue.column >= 1, "\(label): \(issue)")
      #expect(!issue.message.isEmpty)
    }
  }

  @Test func aTenMegabyteFileIsRefusedUnread() {
    let bytes = [UInt8](repeating: 0x20, count: 10 << 20)
    guard case .failure(let failure) = DataAnimator.read(bytes, name: "big", file: "big.json")
    else {
      Issue.record("a 10 MB file validated")
      return
    }
    #expect(failure.issues.first?.message.contains("more than the limit") == true)
  }

  // MARK: The schema

  /// docs/animator.schema.json names exactly the members the reader accepts.
  @Test func theSchemaAndTheReaderAgree() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../docs/animator.schema.json").standardized.path
    let schema = try JSONValue(parsing: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    func members(_ value: JSONValue?) -> Set<String> {
      Set(value?["properties"]?.objectValue?.keys.map { $0 } ?? [])
    }
    let definitions = schema["$defs"]
    #expect(members(schema) == AnimatorDocumentReader.documentKeys)
    #expect(members(definitions?["rule"]) == AnimatorDocumentReader.ruleKeys)
    #expect(members(definitions?["track"]) == AnimatorDocumentReader.trackKeys)
    #expect(members(definitions?["selector"]) == AnimatorDocumentReader.selectorKeys)
    #expect(members(definitions?["operation"]) == AnimatorDocumentReader.operationKeys)
    #expect(members(definitions?["keyframe"]) == AnimatorDocumentReader.keyframeKeys)
    #expect(members(definitions?["stagger"]) == AnimatorDocumentReader.staggerKeys)
    #expect(members(definitions?["gesture"]) == AnimatorDocumentReader.gestureKeys)
    let properties = Set(
      definitions?["property"]?["enum"]?.arrayValue?.compactMap(\.stringValue) ?? [])
    #expect(properties == Set(LayerProperty.allCases.map(\.rawValue)))
  }
}
