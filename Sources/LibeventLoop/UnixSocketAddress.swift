import Glibc
import UnixIO

/// A `sockaddr_un` for a file system path, or for an abstract name written `@name`.
struct UnixSocketAddress {
  private var address = sockaddr_un()
  /// The length to pass to `bind`, `connect` or `sendto`.
  let length: socklen_t

  /// The largest path `sun_path` holds, leaving room for the terminating NUL: 107 bytes.
  static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// Builds the address of `path`.
  ///
  /// - Parameters:
  ///   - path: A file system path; with `allowAbstract`, a leading `@` names an abstract
  ///     socket (the `@` becomes the NUL byte that marks the abstract namespace).
  ///   - allowAbstract: Whether a leading `@` means the abstract namespace.
  /// - Throws: ``UnixSocketError`` when the path is empty, contains NUL or is longer than
  ///   107 bytes.
  init(path: String, allowAbstract: Bool = false) throws(UnixSocketError) {
    var bytes = Array(path.utf8)
    guard !bytes.isEmpty, !bytes.contains(0) else {
      throw UnixSocketError(
        code: .invalidPath, path: path, message: "socket path \"\(path)\" is empty or contains NUL")
    }
    let isAbstract = allowAbstract && bytes.first == UInt8(ascii: "@")
    if isAbstract { bytes[0] = 0 }
    guard bytes.count <= Self.maximumPathLength else {
      throw UnixSocketError(
        code: .pathTooLong, path: path,
        message:
          "socket path \(path) is \(bytes.count) bytes; at most \(Self.maximumPathLength) fit")
    }
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { pathBytes in
      pathBytes.copyBytes(from: bytes)
    }
    let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
    // An abstract name is exactly its bytes; a path carries its terminating NUL.
    length = socklen_t(pathOffset + bytes.count + (isAbstract ? 0 : 1))
  }

  /// Calls `body` with the address as a `sockaddr` pointer and its length.
  @discardableResult
  func withSocketAddress<Result>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Result
  ) throws(SystemError) -> Result {
    var copy = address
    return try withUnsafePointer(to: &copy) { pointer throws(SystemError) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        socketAddress throws(SystemError) in
        try body(socketAddress, length)
      }
    }
  }
}
