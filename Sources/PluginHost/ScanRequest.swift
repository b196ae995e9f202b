import PluginLoader
import PluginValues
import TransitionJSON
import TransitionKit

/// What the daemon asks the host to load: the files of the scan, in scan order, each with the
/// real path the daemon found it at (the payload of a ``HostMessage/Kind/scan`` message, as
/// JSON).
///
/// The daemon has already found, judged and opened them (``ScanFiles``); each file handed over
/// came before this message as one ``HostMessage/Kind/file`` message carrying its descriptor,
/// in the same order. A data animator file that was refused is listed with its `refused`
/// reason and no descriptor. The host never reaches a path itself.
///
/// ```json
/// {"files": [{"kind": "library", "path": "/usr/local/lib/transitiond/plugins/libCubeTurn.so"},
///            {"kind": "data", "path": "/…/album-flip.json", "name": "album-flip"}]}
/// ```
public struct ScanRequest: Equatable, Sendable {
  /// The files, without their descriptors (``ScanFiles/File/descriptor`` is -1 here).
  public var files: [ScanFiles.File]

  /// The most files a scan may list.
  public static let maximumFiles = 4_096

  public init(files: [ScanFiles.File]) {
    self.files = files.map { file in
      var file = file
      file.descriptor = -1
      return file
    }
  }

  /// How many ``HostMessage/Kind/file`` messages precede the scan: one per file handed over.
  public var handedOver: Int { files.filter { $0.refusal == nil }.count }

  /// The JSON payload.
  public var payload: [UInt8] {
    let list: [JSONValue] = files.map { file in
      var members: [String: JSONValue] = [
        "kind": .string(file.kind.rawValue), "path": .string(file.path),
      ]
      if file.kind == .data { members["name"] = .string(file.name) }
      if let refusal = file.refusal { members["refused"] = .string(refusal) }
      return .object(members)
    }
    return Array(JSONValue.object(["files": .array(list)]).serialized.utf8)
  }

  /// Decodes a payload.
  /// - Throws: `EngineError` naming the first bad field.
  public init(payload: [UInt8]) throws(EngineError) {
    let json: JSONValue
    do { json = try JSONValue(parsing: payload) } catch { throw EngineError(error) }
    let root = JSONField(json, path: "scan")
    let elements = try root.required("files").elements()
    guard elements.count <= Self.maximumFiles else {
      throw EngineError(.outOfRange, "scan.files lists more than \(Self.maximumFiles)")
    }
    var files: [ScanFiles.File] = []
    for field in elements {
      guard let kind = RegisteredAnimator.Kind(rawValue: try field.required("kind").string())
      else {
        throw EngineError(.invalidValue, "\(field.path).kind is not library or data")
      }
      let name = try field.optional("name")?.string() ?? ""
      files.append(
        ScanFiles.File(
          kind: kind, path: try field.required("path").string(), name: name, descriptor: -1,
          refusal: try field.optional("refused")?.string()))
    }
    self.init(files: files)
  }
}
