import PluginLoader
import PluginValues
import TransitionJSON
import TransitionKit

/// What a scan left loaded in the host: every animator (all scans so far, in load order) and
/// what this scan noticed (the payload of a ``HostMessage/Kind/scanned`` message, as JSON).
///
/// The daemon decodes it as hostile input: counts, lengths, names, operations and durations
/// are all checked, and anything off refuses the whole report.
public struct ScanReport: Equatable, Sendable {
  public var animators: [RegisteredAnimator]
  public var diagnostics: [PluginDiagnostic]

  /// The most animators a report may list.
  public static let maximumAnimators = 1_024
  /// The most diagnostics a report may carry.
  public static let maximumDiagnostics = 4_096
  /// The longest string (path, message, name, version) a report may carry, in bytes.
  public static let maximumStringBytes = 4_096

  public init(animators: [RegisteredAnimator], diagnostics: [PluginDiagnostic]) {
    self.animators = animators
    self.diagnostics = diagnostics
  }

  /// The JSON payload.
  public var payload: [UInt8] {
    let animatorList: [JSONValue] = animators.map { animator in
      .object([
        "name": .string(animator.name),
        "operations": .array(animator.orderedOperations.map { .string($0.rawValue) }),
        "duration": .number(animator.defaultDuration),
        "plugin": .string(animator.pluginName), "version": .string(animator.pluginVersion),
        "path": .string(animator.libraryPath), "kind": .string(animator.kind.rawValue),
        "params": .array(animator.parameters.map(Self.json)),
        "error": animator.error.map(JSONValue.string) ?? .null,
        "fileVersion": animator.fileVersion.map(JSONValue.string) ?? .null,
        "reduced": .bool(animator.hasReducedForm),
      ])
    }
    let diagnosticList: [JSONValue] = diagnostics.map { diagnostic in
      .object([
        "code": .string(diagnostic.code.rawValue),
        "severity": .string(diagnostic.severity.description),
        "path": .string(diagnostic.path), "message": .string(diagnostic.message),
      ])
    }
    let json = JSONValue.object([
      "animators": .array(animatorList), "diagnostics": .array(diagnosticList),
    ])
    return Array(json.serialized.utf8)
  }

  /// Decodes and validates a payload from the host.
  /// - Throws: `EngineError` naming the first field that is missing, mistyped or out of
  ///   bounds.
  public init(payload: [UInt8]) throws(EngineError) {
    let json: JSONValue
    do { json = try JSONValue(parsing: payload) } catch { throw EngineError(error) }
    let root = JSONField(json, path: "scanned")
    let animatorFields = try root.required("animators").elements()
    guard animatorFields.count <= Self.maximumAnimators else {
      throw EngineError(.outOfRange, "scanned.animators lists more than \(Self.maximumAnimators)")
    }
    var names = Set<String>()
    var animators: [RegisteredAnimator] = []
    for field in animatorFields {
      let name = try Self.string(field, "name")
      guard AnimatorName.isValid(name), names.insert(name).inserted else {
        throw EngineError(.invalidValue, "\(field.path).name is not a valid unique name")
      }
      var operations = Set<TransitionOperation>()
      for element in try field.required("operations").elements() {
        guard let operation = TransitionOperation(rawValue: try element.string()) else {
          throw EngineError(.invalidValue, "\(element.path) is not an operation")
        }
        operations.insert(operation)
      }
      let error = try field.optional("error").map { _ throws(EngineError) in
        try Self.string(field, "error")
      }
      guard !operations.isEmpty || error != nil else {
        throw EngineError(.empty, "\(field.path).operations is empty")
      }
      let fileVersion = try field.optional("fileVersion").map { _ throws(EngineError) in
        try Self.string(field, "fileVersion")
      }
      let hasReducedForm = try field.optional("reduced")?.bool() ?? false
      let kindName = try field.optional("kind")?.string() ?? "library"
      guard let kind = RegisteredAnimator.Kind(rawValue: kindName) else {
        throw EngineError(.invalidValue, "\(field.path).kind is not library or data")
      }
      var parameters: [AnimatorParameter] = []
      let parameterFields = try field.optional("params")?.elements() ?? []
      guard parameterFields.count <= Self.maximumParameters else {
        throw EngineError(
          .outOfRange, "\(field.path).params lists more than \(Self.maximumParameters)")
      }
      for element in parameterFields {
        parameters.append(try Self.parameter(element))
      }
      let duration = try field.required("duration").number()
      guard duration.isFinite, duration > 0 else {
        throw EngineError(.outOfRange, "\(field.path).duration must be positive")
      }
      animators.append(
        RegisteredAnimator(
          name: name, operations: operations, defaultDuration: duration,
          pluginName: try Self.string(field, "plugin"),
          pluginVersion: try Self.string(field, "version"),
          libraryPath: try Self.string(field, "path"), kind: kind, parameters: parameters,
          error: error, fileVersion: fileVersion, hasReducedForm: hasReducedForm))
    }
    let diagnosticFields = try root.required("diagnostics").elements()
    guard diagnosticFields.count <= Self.maximumDiagnostics else {
      throw EngineError(
        .outOfRange, "scanned.diagnostics carries more than \(Self.maximumDiagnostics)")
    }
    var diagnostics: [PluginDiagnostic] = []
    for field in diagnosticFields {
      let severityName = try Self.string(field, "severity")
      guard
        let severity = PluginDiagnostic.Severity.allCases.first(where: {
          $0.description == severityName
        })
      else {
        throw EngineError(.invalidValue, "\(field.path).severity is not a severity")
      }
      diagnostics.append(
        PluginDiagnostic(
          PluginDiagnostic.Code(rawValue: try Self.string(field, "code")), severity,
          path: try Self.string(field, "path"), try Self.string(field, "message")))
    }
    self.init(animators: animators, diagnostics: diagnostics)
  }

  /// The most parameters one animator may list.
  public static let maximumParameters = 64

  private static func json(_ parameter: AnimatorParameter) -> JSONValue {
    .object([
      "name": .string(parameter.name), "default": .number(parameter.defaultValue),
      "min": .number(parameter.range.lowerBound), "max": .number(parameter.range.upperBound),
      "description": parameter.summary.map(JSONValue.string) ?? .null,
    ])
  }

  private static func parameter(_ field: JSONField) throws(EngineError) -> AnimatorParameter {
    let name = try string(field, "name")
    let value = try field.required("default").number()
    let low = try field.required("min").number()
    let high = try field.required("max").number()
    guard low <= high, (low...high).contains(value) else {
      throw EngineError(.outOfRange, "\(field.path) has its default outside [min, max]")
    }
    let summary = try field.optional("description").map { _ throws(EngineError) in
      try string(field, "description")
    }
    return AnimatorParameter(name: name, defaultValue: value, range: low...high, summary: summary)
  }

  private static func string(_ field: JSONField, _ key: String) throws(EngineError) -> String {
    let member = try field.required(key)
    let text = try member.string()
    guard text.utf8.count <= maximumStringBytes else {
      throw EngineError(.outOfRange, "\(member.path) is longer than \(maximumStringBytes) bytes")
    }
    return text
  }
}
