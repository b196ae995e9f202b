import TransitionClient
import TransitionJSON
import TransitionWire

/// `transitionctl use OPERATION ANIMATOR`: switches a route (admin).
enum UseCommand: Command {
  static let name = "use"
  static let summary = "Route an operation to an animator (admin)."
  static let usage = "use OPERATION ANIMATOR [--json]"
  static let details = """
    Makes ANIMATOR serve OPERATION (push, pop, present or dismiss) for every later 'begin' that
    names no animator, then prints the new route table. Sessions already running keep their
    animator. Only root, the daemon's own user or its admin group may switch routes.

    options:
      --json, -j    print the daemon's reply as JSON

    exit status:
      0 switched, 1 refused by the daemon (unknown animator, unsupported operation),
      77 not allowed for this user, 69 daemon unreachable

    example:
      transitionctl use push default-slide
    """
  static let flags: Set<String> = ["json"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let positionals = try arguments.positionals(
      minimum: 2, maximum: 2, names: "OPERATION and ANIMATOR", verb: name)
    try RoutesCommand.printRoutes(
      .route, ["operation": .string(positionals[0]), "animator": .string(positionals[1])],
      json: arguments.has("json"), context)
    return ExitCode.success
  }
}
