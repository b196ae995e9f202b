import Glibc

/// A `sockaddr_un` for a file system path, or for an abstract name written `@name`: the one
/// place the project fills one in (client, benchmark, tests).
public struct UnixSocketAddress: Sendable {
  private let pathBytes: [UInt8]
  /// The length to pass to `bind`, `connect` or `sendto`.
  public let length: socklen_t

  /// The largest path `sun_path` holds, leaving room for the terminating NUL: 107 bytes.
  public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

  /// The address of `path`.
  ///
  /// - Parameters:
  ///   - path: a file system path; with `allowAbstract`, a leading `@` names an abstract socket
  ///     (the `@` becomes the NUL byte that marks the abstract namespace).
  ///   - allowAbstract: whether a leading `@` means the abstract namespace.
  /// - Throws: `EINVAL` when the path is empty or contains NUL, `ENAMETOOLONG` when it is longer
  ///   than ``maximumPathLength`` bytes (function `sockaddr_un`).
  public init(path: String, allowAbstract: Bool = false) throws(SystemError) {
    var bytes = Array(path.utf8)
    guard !bytes.isEmpty, !bytes.contains(0) else {
      throw SystemError(errno: EINVAL, function: "sockaddr_un", path: path)
    }
    let isAbstract = allowAbstract && bytes.first == UInt8(ascii: "@")
    if isAbstract { bytes[0] = 0 }
    guard bytes.count <= Self.maximumPathLength else {
      throw SystemError(errno: ENAMETOOLONG, function: "sockaddr_un", path: path)
    }
    pathBytes = bytes
    let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
    // An abstract name is exactly its bytes; a path carries its terminating NUL.
    length = socklen_t(pathOffset + bytes.count + (isAbstract ? 0 : 1))
  }

  /// Calls `body` with the address as a `sockaddr` pointer and its length.
  public func withSocketAddress<Result, Failure: Error>(
    _ body: (UnsafePointer<sockaddr>, socklen_t) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: pathBytes) }
    return try withUnsafePointer(to: &address) { pointer throws(Failure) in
      try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic throws(Failure) in
        try body(generic, length)
      }
    }
  }
}
