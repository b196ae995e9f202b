import TransitionClient

/// `transitionctl version`: this tool's version and the daemon's `hello`.
enum VersionCommand: Command {
  static let name = "version"
  static let summary = "Show the versions of transitionctl and the daemon."
  static let usage = "version [--json]"
  static let details = """
    Prints transitionctl's version, then greets the daemon and prints its name, version,
    protocol and process id. ('transitionctl --version' prints only transitionctl's version
    and does not contact the daemon.)

    options:
      --json, -j    print the daemon's hello reply as JSON, plus "client"

    example:
      transitionctl version
      transitionctl 0.1.0
      transitiond 0.1.0 (protocol 1, pid 4242) at /run/user/1000/transitiond/transitiond.sock
    """
  static let flags: Set<String> = ["json"]

  /// The version of this tool.
  static let clientVersion = "0.1.0"

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    _ = try arguments.positionals(minimum: 0, maximum: 0, names: "", verb: name)
    guard
      let info = try context.query(
        .hello, json: arguments.has("json"), adding: ["client": .string(clientVersion)],
        decode: ServerInfo.init)
    else { return ExitCode.success }
    try context.output.line("transitionctl \(clientVersion)")
    try context.output.line(
      "\(info.server) \(info.version) (protocol \(info.protocolVersion), pid \(info.pid)) at \(context.socketPath)"
    )
    return ExitCode.success
  }
}
