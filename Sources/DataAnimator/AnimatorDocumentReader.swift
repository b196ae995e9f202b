import TransitionJSON
import TransitionKit

/// Reads and validates a data animator file in one pass, collecting every problem with the
/// JSON pointer of the value at fault (docs/animators.md).
///
/// Nothing here evaluates an expression: names are checked against what each scope offers,
/// `let` variables for cycles, and everything else for shape, type and range. What can only
/// fail on a particular context (a division by zero, a missing `other` layer) fails when the
/// timeline is built.
struct AnimatorDocumentReader {
  /// The largest file read, in bytes.
  static let maximumFileBytes = 1 << 20
  /// Bounds on what a file may hold, so that building a timeline stays cheap.
  static let maximumRules = 256
  static let maximumTracks = 64
  static let maximumKeyframes = 256
  static let maximumParameters = 64
  static let maximumVariables = 256

  /// Names every context offers.
  static let contextNames: Set<String> = {
    var names: Set<String> = [
      "container.width", "container.height", "container.midX",
      "container.midY", "duration", "pi", "touch.x", "touch.y",
    ]
    for layer in ["selected", "match"] {
      for field in LayerExpressionField.allCases { names.insert("\(layer).\(field.rawValue)") }
    }
    return names
  }()
  /// Names each layer of a rule adds.
  static let layerNames: Set<String> = {
    var names: Set<String> = ["index", "count"]
    for layer in ["layer", "other"] {
      for field in LayerExpressionField.allCases { names.insert("\(layer).\(field.rawValue)") }
    }
    return names
  }()
  /// Names a rule's stagger adds.
  static let staggerNames: Set<String> = ["stagger", "distance", "farthest"]

  var issues: [ValidationIssue] = []
  let file: String
  let map: JSONSourceMap
  var parameterNames: Set<String> = []
  /// The slots of the names read so far.
  var nameSlots = NameSlots()
  var globalNames: Set<String> = []

  init(file: String, map: JSONSourceMap) {
    self.file = file
    self.map = map
  }

  /// Reads `bytes` as the data animator `name` (the file's name without `.json`).
  /// - Parameters:
  ///   - file: how messages name the file.
  /// - Returns: the document, or every problem found (at least one).
  static func read(_ bytes: some Collection<UInt8>, name: String, file: String)
    -> Result<AnimatorDocument, AnimatorFileError>
  {
    guard bytes.count <= maximumFileBytes else {
      return .failure(
        AnimatorFileError([
          ValidationIssue(
            file: file, line: 1, column: 1, pointer: "",
            message: "the file has \(bytes.count) bytes, more than the limit of \(maximumFileBytes)"
          )
        ]))
    }
    let value: JSONValue
    let map: JSONSourceMap
    do {
      (value, map) = try JSONValue.parsingWithSourceMap(bytes)
    } catch {
      let (line, column) = JSONSourceMap(text: bytes).location(ofOffset: error.offset)
      return .failure(
        AnimatorFileError([
          ValidationIssue(
            file: file, line: line, column: column, pointer: "",
            message: "not valid JSON: \(error.reason)")
        ]))
    }
    var reader = AnimatorDocumentReader(file: file, map: map)
    let document = reader.document(value, name: name)
    guard reader.issues.isEmpty, let document else {
      let issues = reader.issues.isEmpty ? [reader.issue("", "not an animator")] : reader.issues
      return .failure(
        AnimatorFileError(issues.sorted { ($0.line, $0.column) < ($1.line, $1.column) }))
    }
    return .success(document)
  }
}
