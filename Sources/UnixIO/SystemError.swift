import Glibc

/// A failed system or libevent call: the C function's name and the `errno` it left.
///
/// Raw system calls go through ``retryingInterrupts(_:path:_:)``, which retries `EINTR` and
/// throws this error for any other failure: the one error of the project's system calls (the
/// event loop, the client, tests).
public struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The `errno` value reported by the failing call.
  public let errno: Int32
  /// The name of the C function that failed, such as `"bind"` or `"event_base_new"`.
  public let function: String
  /// The file system path the call was about, when there is one.
  public let path: String?

  /// Creates an error for `function` failing with `errno`.
  ///
  /// - Parameters:
  ///   - errno: The error number the call reported.
  ///   - function: The name of the C function that failed.
  ///   - path: The file system path the call was about, if any.
  public init(errno: Int32, function: String, path: String? = nil) {
    self.errno = errno
    self.function = function
    self.path = path
  }

  /// The system's sentence for ``errno`` (`No such file or directory`).
  public var reason: String { String(cString: strerror(errno)) }

  /// `function path: message (errno N)`, for example `bind /run/x.sock: Address already in use (errno 98)`.
  public var description: String {
    let subject = path.map { "\(function) \($0)" } ?? function
    return "\(subject): \(reason) (errno \(errno))"
  }
}

/// Calls `call` until it succeeds or fails with something other than `EINTR`.
///
/// - Parameters:
///   - function: The C function's name, recorded in the error.
///   - path: The file system path the call is about, recorded in the error.
///   - call: The raw call; it reports failure by returning -1 and setting `errno`.
/// - Returns: The call's result when it is not -1.
/// - Throws: ``SystemError`` carrying `errno` when the call fails with anything but `EINTR`.
@discardableResult
public func retryingInterrupts<Result: FixedWidthInteger & SignedInteger>(
  _ function: String, path: String? = nil, _ call: () -> Result
) throws(SystemError) -> Result {
  while true {
    let result = call()
    if result != -1 { return result }
    let code = Glibc.errno
    if code != EINTR { throw SystemError(errno: code, function: function, path: path) }
  }
}
