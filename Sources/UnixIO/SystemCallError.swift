import Glibc

/// A system call that failed: its name, its `errno`, and the path it concerned.
public struct SystemCallError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The failing function (`connect`, `send`, …).
  public let function: String
  /// The `errno` it left.
  public let errno: Int32
  /// The socket or file path concerned, when there is one.
  public let path: String?

  public init(function: String, errno: Int32, path: String? = nil) {
    self.function = function
    self.errno = errno
    self.path = path
  }

  /// The system's sentence for ``errno`` (`No such file or directory`).
  public var reason: String { String(cString: strerror(errno)) }

  public var description: String {
    path.map { "\(function) \($0): \(reason)" } ?? "\(function): \(reason)"
  }
}
