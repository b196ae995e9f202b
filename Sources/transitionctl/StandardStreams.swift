import Glibc

/// The process's standard output and standard error as ``OutputWriter``s.
enum StandardStreams {
  /// Standard output.
  static let output = OutputWriter(descriptor: STDOUT_FILENO, name: "standard output")
  /// Standard error.
  static let error = OutputWriter(descriptor: STDERR_FILENO, name: "standard error")

  /// Prints `transitionctl: message` on standard error, ignoring failures to do so.
  static func note(_ message: String) {
    try? error.line("transitionctl: \(message)")
  }
}
