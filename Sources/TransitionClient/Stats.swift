import TransitionJSON

/// The reply to `stats`: the daemon's counters.
///
/// Nested counters are flattened to dotted names (`frames.sent`, `connections.current`,
/// `animators.album-flip`) so new counters appear without a change here.
public struct Stats: Equatable, Sendable {
  /// Seconds since the daemon started.
  public let uptime: Double
  /// Every numeric counter by dotted name, `uptime` included.
  public let counters: [String: Double]

  /// Reads the fields of a `stats` reply.
  /// - Throws: ``ClientError/Code/malformed`` when `stats` or `stats.uptime` is missing.
  public init(_ reply: Reply) throws(ClientError) {
    let stats = try reply.object.object("stats")
    uptime = try stats.double("uptime")
    var counters: [String: Double] = [:]
    Self.flatten(stats.fields, prefix: "", into: &counters)
    self.counters = counters
  }

  /// A counter by dotted name, 0 when the daemon does not report it.
  public subscript(name: String) -> Double { counters[name] ?? 0 }

  private static func flatten(
    _ fields: [String: JSONValue], prefix: String, into result: inout [String: Double]
  ) {
    for (key, value) in fields {
      let name = prefix.isEmpty ? key : "\(prefix).\(key)"
      if let number = value.numberValue {
        result[name] = number
      } else if let nested = value.objectValue {
        flatten(nested, prefix: name, into: &result)
      }
    }
  }
}
