import Glibc
import UnixIO

/// Writes text to a file descriptor (standard output, or a file opened for `--out`).
///
/// Writes go straight to the descriptor, retrying `EINTR` and short writes, so NDJSON lines
/// reach a pipe as soon as they are printed.
final class OutputWriter: Sendable {
  private let descriptor: Int32
  private let ownsDescriptor: Bool
  /// What the output is called in error messages (`standard output` or the file's path).
  let name: String

  /// Writes to an already-open descriptor that this writer does not close.
  init(descriptor: Int32, name: String) {
    self.descriptor = descriptor
    self.ownsDescriptor = false
    self.name = name
  }

  /// Writes to `descriptor`, which this writer closes when it goes.
  init(owning descriptor: Int32, name: String) {
    self.descriptor = descriptor
    self.ownsDescriptor = true
    self.name = name
  }

  /// Creates (or truncates) the file at `path` and writes to it.
  ///
  /// - Throws: ``ExitCode/cannotCreate`` naming the file and the system's reason.
  init(creatingFileAt path: String) throws(CommandFailure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw CommandFailure(
        ExitCode.cannotCreate, "cannot write \(path): \(String(cString: strerror(errno)))")
    }
    descriptor = fd
    ownsDescriptor = true
    name = path
  }

  deinit {
    if ownsDescriptor && descriptor >= 0 { _ = close(descriptor) }
  }

  /// Whether the output is a terminal.
  var isTerminal: Bool { isatty(descriptor) == 1 }

  /// Writes `text` followed by a newline.
  /// - Throws: ``ExitCode/ioError``, or a silent success exit when the reader has gone (EPIPE).
  func line(_ text: String) throws(CommandFailure) {
    try write(text + "\n")
  }

  /// Writes `text` as is.
  /// - Throws: ``ExitCode/ioError``, or a silent success exit when the reader has gone (EPIPE).
  func write(_ text: String) throws(CommandFailure) {
    let failure: SystemError
    do {
      try writeAll(Array(text.utf8), to: descriptor, isSocket: false)
      return
    } catch {
      failure = error
    }
    if failure.errno == EPIPE {
      // The reader went away (`transitionctl watch | head`): stop quietly, like `cat`.
      throw CommandFailure(ExitCode.success, "")
    }
    throw CommandFailure(
      ExitCode.ioError, "cannot write to \(name): \(failure.reason)")
  }
}
