import Glibc
import TransitionWire

/// The `transitionctl` program: global options, the verb table and dispatch.
///
/// `transitionctl [--socket PATH] COMMAND [ARGS…]`; `--socket` may also follow the command.
/// Failures print one line, `transitionctl: …`, on standard error and exit with a sysexits
/// status (see ``ExitCode``).
enum Transitionctl {
  /// Every verb, in the order the overview lists them.
  static var commands: [any Command.Type] {
    [
      AnimatorsCommand.self, RoutesCommand.self, UseCommand.self, PlayCommand.self,
      RenderCommand.self,
      WatchCommand.self, ViewCommand.self, DriveCommand.self, SessionsCommand.self,
      StatsCommand.self,
      ReloadCommand.self, EndCommand.self, VersionCommand.self, CompletionCommand.self,
      HelpCommand.self,
    ]
  }

  /// The verb named `name`.
  static func command(named name: String) -> (any Command.Type)? {
    commands.first { $0.name == name }
  }

  /// The `--help` overview.
  static var overview: String {
    let width = commands.map { $0.name.count }.max() ?? 0
    let list = commands.map { command in
      "  " + command.name + String(repeating: " ", count: width - command.name.count + 2)
        + command.summary
    }
    return """
      usage: transitionctl [--socket PATH] COMMAND [ARGS...]

      Control transitiond, the transition-animation daemon.

      commands:
      \(list.joined(separator: "\n"))

      global options:
        --socket PATH   the daemon's socket (default: $\(SocketPath.environmentVariable), else
                        $XDG_RUNTIME_DIR/transitiond/transitiond.sock, else
                        /tmp/transitiond-UID/transitiond.sock)
        --help, -h      show help (after a command: that command's help)
        --version       print transitionctl's version

      Read commands take --json. Exit status follows sysexits: 64 usage, 65 bad data,
      69 daemon unreachable, 77 not allowed; 1 when the daemon refuses a request.

      examples:
        transitionctl animators
        transitionctl play config/scenes/album-flip-push.json --virtual > frames.ndjson
        transitionctl watch '*'

      """
  }

  /// Runs the program with `arguments` (without the program name).
  ///
  /// - Returns: the exit status.
  static func main(_ arguments: [String], environment: [String: String]) -> Int32 {
    do {
      return try dispatch(arguments, environment: environment)
    } catch {
      if !error.message.isEmpty { StandardStreams.note(error.message) }
      return error.exitCode
    }
  }

  private static func dispatch(_ arguments: [String], environment: [String: String])
    throws(CommandFailure) -> Int32
  {
    var socket: String?
    var index = 0
    while index < arguments.count, arguments[index].hasPrefix("-") {
      let argument = arguments[index]
      index += 1
      switch argument {
      case "--help", "-h":
        try StandardStreams.output.write(overview)
        return ExitCode.success
      case "--version":
        try StandardStreams.output.line("transitionctl \(VersionCommand.clientVersion)")
        return ExitCode.success
      case "--socket":
        guard index < arguments.count else { throw .usage("--socket needs a value") }
        socket = arguments[index]
        index += 1
      case _ where argument.hasPrefix("--socket="):
        socket = String(argument.dropFirst("--socket=".count))
      default:
        throw .usage("unknown option '\(argument)'")
      }
    }
    guard index < arguments.count else {
      try? StandardStreams.error.write(overview)
      return ExitCode.usage
    }
    let verb = arguments[index]
    guard let command = command(named: verb) else {
      throw .usage("unknown command '\(verb)'")
    }
    let rest = Array(arguments[(index + 1)...])
    if rest.contains(where: { $0 == "--help" || $0 == "-h" }) {
      try StandardStreams.output.write(command.help)
      return ExitCode.success
    }
    let parsed = try ParsedArguments(
      rest, verb: verb, flags: command.flags, options: command.options.union(["socket"]))
    let context = CommandContext(
      socketPath: parsed.value("socket") ?? socket
        ?? SocketPath.resolve(environment: environment, uid: getuid()),
      output: StandardStreams.output)
    return try command.run(parsed, context)
  }
}
