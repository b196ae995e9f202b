/// One loaded animator, as listed by `animators`.
public struct AnimatorInfo: Equatable, Sendable {
  /// The animator's name (`album-flip`), used in routes and `begin`.
  public let name: String
  /// The operations it serves (`push`, `pop`, …).
  public let operations: [String]
  /// The plugin that provides it.
  public let plugin: String
  /// The plugin's version.
  public let version: String
  /// The animator's default duration in seconds, when the daemon reports it.
  public let duration: Double?
  /// The plugin's file, when the daemon reports it.
  public let path: String?
  /// True when the plugin is quarantined: listed, but every `begin` falls back.
  public let quarantined: Bool
  /// Why a data animator's file does not validate (`file:line:column: /pointer: message`), or
  /// nil.
  public var error: String? = nil
  /// For a data animator, its file as the daemon last read it,
  /// `DEVICE:INODE:SIZE:SECONDS.NANOSECONDS` from stat(2) (``FileVersion``), or nil.
  public var fileVersion: String? = nil
}

/// The reply to `animators`: every loaded animator and the route table.
public struct AnimatorList: Sendable {
  /// The loaded animators, in the daemon's order.
  public let animators: [AnimatorInfo]
  /// Which animator serves each operation.
  public let routes: [String: String]
  /// The quarantined plugin libraries and why, by path (those that crashed while loading
  /// have no animators listed).
  public let quarantinedPlugins: [(path: String, reason: String)]

  /// Reads the fields of an `animators` reply.
  /// - Throws: ``ClientError/Code/malformed`` when a field is missing or mistyped.
  public init(_ reply: Reply) throws(ClientError) {
    let object = reply.object
    var animators: [AnimatorInfo] = []
    for entry in try object.objects("animators") {
      animators.append(
        AnimatorInfo(
          name: try entry.string("name"),
          operations: try entry.strings("operations"),
          plugin: try entry.string("plugin"),
          version: try entry.string("version"),
          duration: entry["duration"]?.numberValue,
          path: entry["path"]?.stringValue,
          quarantined: entry["quarantined"]?.boolValue ?? false,
          error: entry["error"]?.stringValue, fileVersion: entry["fileVersion"]?.stringValue))
    }
    self.animators = animators
    routes = try RouteTable.decode(object)
    quarantinedPlugins = (object["quarantined"]?.arrayValue ?? []).compactMap { entry in
      guard let fields = entry.objectValue, let path = fields["path"]?.stringValue else {
        return nil
      }
      return (path, fields["reason"]?.stringValue ?? "")
    }
  }
}

/// Decoding of the `routes` object shared by `animators`, `routes` and `route` replies.
public enum RouteTable {
  /// The `routes` member of a `routes` or `route` reply as operation → animator.
  /// - Throws: ``ClientError/Code/malformed`` when it is missing or a value is not a string.
  public static func decode(_ reply: Reply) throws(ClientError) -> [String: String] {
    try decode(reply.object)
  }

  /// The `routes` member of `object` as operation → animator.
  /// - Throws: ``ClientError/Code/malformed`` when it is missing or a value is not a string.
  static func decode(_ object: JSONObject) throws(ClientError) -> [String: String] {
    let table = try object.object("routes")
    var routes: [String: String] = [:]
    for key in table.fields.keys {
      routes[key] = try table.string(key)
    }
    return routes
  }
}
