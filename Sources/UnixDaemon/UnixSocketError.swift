import Glibc
import UnixIO

/// A Unix socket path that cannot be used, for a reason other than a failed system call.
public struct UnixSocketError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong with the path. New codes may be added.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String

    private init(_ name: String) { self.name = name }

    /// The path does not fit in `sockaddr_un.sun_path` (at most 107 bytes).
    public static let pathTooLong = Code("pathTooLong")
    /// The path is empty or contains a NUL byte.
    public static let invalidPath = Code("invalidPath")
    /// Another live process holds the path's lock: a second instance must not start.
    public static let alreadyInUse = Code("alreadyInUse")
    /// Something that is not a socket already exists at the path; it is left alone.
    public static let notASocket = Code("notASocket")
    /// A directory or file on the way is not owned by the process's uid, is writable by
    /// others, is a symbolic link, or is of the wrong type: it is not trusted.
    public static let unsafeOwnership = Code("unsafeOwnership")

    public var description: String { name }
  }

  /// What is wrong.
  public let code: Code
  /// The socket path concerned.
  public let path: String
  /// One human-readable line, for example `another transitiond is running on /run/t.sock`.
  public let message: String

  /// Creates an error; `message` is the line shown to people.
  public init(code: Code, path: String, message: String) {
    self.code = code
    self.path = path
    self.message = message
  }

  public var description: String { message }
}

extension UnixSocketAddress {
  /// The address of the socket at `path`, refused as a ``UnixSocketError``.
  ///
  /// - Throws: ``UnixSocketError/Code/invalidPath`` when the path is empty or contains NUL,
  ///   ``UnixSocketError/Code/pathTooLong`` when it is longer than
  ///   ``UnixSocketAddress/maximumPathLength`` bytes.
  public init(socketPath path: String, allowAbstract: Bool = false) throws(UnixSocketError) {
    do {
      try self.init(path: path, allowAbstract: allowAbstract)
    } catch {
      guard error.errno == ENAMETOOLONG else {
        throw UnixSocketError(
          code: .invalidPath, path: path,
          message: "socket path \"\(path)\" is empty or contains NUL")
      }
      throw UnixSocketError(
        code: .pathTooLong, path: path,
        message:
          "socket path \(path) is \(path.utf8.count) bytes; at most \(Self.maximumPathLength) fit")
    }
  }
}
