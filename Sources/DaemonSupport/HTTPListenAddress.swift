/// Where the daemon's HTTP listener binds: a loopback address and a port (config key
/// `http.listen`, docs/config.md). Only loopback is accepted, because the viewer shows every
/// session to anyone holding the token and a TCP port is open to every local user.
///
/// Written `127.0.0.1:7878` (any address in 127.0.0.0/8) or `[::1]:7878`; port 0 asks the
/// system for a free port (the daemon logs the one it got).
public struct HTTPListenAddress: Equatable, Sendable, CustomStringConvertible {
  /// The numeric address without brackets: `127.0.0.1` or `::1`.
  public let host: String
  /// The port, 0 for one the system picks.
  public let port: UInt16

  /// Parses and checks `text`.
  ///
  /// - Returns: Nil when `text` is not a loopback address with a port; the caller names the
  ///   key in its error.
  public init?(_ text: String) {
    let hostPart: Substring
    let portPart: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      hostPart = text[text.index(after: text.startIndex)..<close]
      let rest = text[text.index(after: close)...]
      guard rest.hasPrefix(":") else { return nil }
      portPart = rest.dropFirst()
      guard hostPart == "::1" else { return nil }
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      hostPart = text[..<colon]
      portPart = text[text.index(after: colon)...]
      let octets = hostPart.split(separator: ".", omittingEmptySubsequences: false)
      guard octets.count == 4, octets[0] == "127",
        octets.allSatisfy({ octet in
          !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCII)
            && UInt8(octet) != nil
        })
      else { return nil }
    }
    guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy({ $0.isASCII }),
      let port = UInt16(portPart)
    else { return nil }
    host = String(hostPart)
    self.port = port
  }

  /// The address as written in the config: `127.0.0.1:7878`, `[::1]:7878`.
  public var description: String { authority(port: port) }

  /// The URL authority for `port` (the bound port when the config said 0).
  public func authority(port: UInt16) -> String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }
}
