import TransitionClient
import TransitionJSON

/// `transitionctl end SESSION`: cancels a session at once (admin).
enum EndCommand: Command {
  static let name = "end"
  static let summary = "Cancel a session at once (admin)."
  static let usage = "end SESSION [--json]"
  static let details = """
    Ends SESSION immediately: its subscribers receive a 'complete' event with finished false.
    Unlike 'drive SESSION --cancel', nothing animates back. Only root, the daemon's own user or
    its admin group may end sessions.

    options:
      --json, -j    print the daemon's reply as JSON

    example:
      transitionctl end s4
    """
  static let flags: Set<String> = ["json"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let session = try arguments.positionals(minimum: 1, maximum: 1, names: "SESSION", verb: name)[0]
    let ended = try context.query(
      .end, ["session": .string(session)], json: arguments.has("json"), decode: { _ in true })
    if ended == true { try context.output.line("ended \(session)") }
    return ExitCode.success
  }
}
