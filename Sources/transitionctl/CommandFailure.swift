import TransitionClient
import TransitionWire

/// Why a command stopped early: the exit status and the one line printed on stderr.
struct CommandFailure: Error {
  /// The process exit status (see ``ExitCode``).
  let exitCode: Int32
  /// The line printed after `transitionctl: `; empty prints nothing.
  let message: String

  init(_ exitCode: Int32, _ message: String) {
    self.exitCode = exitCode
    self.message = message
  }

  /// A usage error (exit 64) that points at the verb's help.
  static func usage(_ message: String, verb: String? = nil) -> CommandFailure {
    let hint = verb.map { "transitionctl \($0) --help" } ?? "transitionctl --help"
    return CommandFailure(ExitCode.usage, "\(message) (see '\(hint)')")
  }

  /// Maps a client error to its exit status and message.
  ///
  /// Connection failures become the sysexits "unavailable" line that names the socket,
  /// `forbidden` becomes EX_NOPERM, other daemon refusals exit 1 with `code: message`.
  init(_ error: ClientError) {
    switch error.code {
    case .connectFailed:
      self.init(
        ExitCode.unavailable,
        "cannot connect to \(error.path ?? "the socket"): is transitiond running?")
    case .protocolError where error.daemonCode == WireError.Code.forbidden.rawValue:
      self.init(ExitCode.permissionDenied, "forbidden: \(error.message)")
    case .protocolError:
      self.init(ExitCode.daemonError, error.description)
    case .timeout:
      self.init(ExitCode.temporaryFailure, "transitiond did not answer in time")
    case .closed:
      self.init(ExitCode.unavailable, "transitiond closed the connection")
    default:
      self.init(ExitCode.protocolError, "unexpected answer from transitiond: \(error.message)")
    }
  }

  /// Maps any error a command's body throws: a `CommandFailure` as it is, a `ClientError` as
  /// above, anything else as an unexpected answer (EX_PROTOCOL).
  init(any error: Error) {
    switch error {
    case let failure as CommandFailure: self = failure
    case let client as ClientError: self.init(client)
    default: self.init(ExitCode.protocolError, "\(error)")
    }
  }
}
