import TransitionWire

/// What a client may say of itself in `hello`: its name, shown by `sessions`, `stats` and the
/// daemon's log lines about it, and the protocol version it speaks.
struct ClientGreeting {
  /// The protocol versions this daemon speaks.
  static let supportedProtocols = [1]
  /// The most UTF-8 bytes of a client's name.
  static let maximumNameBytes = 64

  /// The client's name, when it gave one.
  let name: String?
  /// The version the client speaks, when it said.
  let protocolVersion: Int?

  /// Reads `client` and `protocol`.
  ///
  /// - Throws: `bad_request` for a name that is empty, longer than ``maximumNameBytes`` or holds
  ///   a control character, or a `protocol` that is not a whole number;
  ///   `unsupported_protocol`, naming the versions this daemon speaks, for a version it does not.
  init(_ request: Request) throws(WireError) {
    name = try request.optionalString("client")
    if let name {
      guard !name.isEmpty, name.utf8.count <= Self.maximumNameBytes,
        !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
      else {
        throw WireError(
          .badRequest,
          "client must be a name of 1 to \(Self.maximumNameBytes) bytes without control characters")
      }
    }
    let version = try request.optionalNumber("protocol")
    guard let version else {
      protocolVersion = nil
      return
    }
    guard version.rounded() == version, abs(version) < 1e9 else {
      throw WireError(.badRequest, "protocol must be a whole number, got \(version)")
    }
    guard Self.supportedProtocols.contains(Int(version)) else {
      let spoken = Self.supportedProtocols.map(String.init).joined(separator: ", ")
      throw WireError(
        .unsupportedProtocol,
        "this daemon speaks protocol \(spoken), not \(Int(version))")
    }
    protocolVersion = Int(version)
  }
}
