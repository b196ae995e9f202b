import TransitionClient

/// `transitionctl sessions`: the sessions still running.
enum SessionsCommand: Command {
  static let name = "sessions"
  static let summary = "List the running sessions."
  static let usage = "sessions [--json] [--quiet]"
  static let details = """
    Prints one row per running session: its id, animator, operation, clock state, progress,
    duration, age (seconds since it began), whether it began interactive, and how many
    subscriptions watch it.
    A session leaves the list shortly after it completes.

    options:
      --json, -j    print the daemon's reply as JSON
      --quiet, -q   print only the session ids, one a line

    example:
      transitionctl sessions
      SESSION  ANIMATOR    OPERATION  STATE        PROGRESS  DURATION  AGE     INTERACTIVE  SUBSCRIBERS
      s4       album-flip  push       interactive  40%       1.00 s    3.20 s  yes          1
    """
  static let flags: Set<String> = ["json", "quiet"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    _ = try arguments.positionals(minimum: 0, maximum: 0, names: "", verb: name)
    guard
      let sessions = try context.query(
        .sessions, json: arguments.has("json"), decode: SessionInfo.list)
    else { return ExitCode.success }
    if arguments.has("quiet") {
      for session in sessions { try context.output.line(session.session) }
      return ExitCode.success
    }
    if !sessions.isEmpty {
      var table = TableFormatter([
        "SESSION", "ANIMATOR", "OPERATION", "STATE", "PROGRESS", "DURATION", "AGE", "INTERACTIVE",
        "SUBSCRIBERS",
      ])
      for session in sessions {
        table.add([
          session.session, session.animator, session.operation, session.state,
          "\(Int((session.progress * 100).rounded()))%",
          "\(NumberText.fixed(session.duration)) s", "\(NumberText.fixed(session.t)) s",
          session.interactive ? "yes" : "no", String(session.subscribers),
        ])
      }
      for line in table.render() { try context.output.line(line) }
      try context.output.line("")
    }
    try context.output.line("\(sessions.count) session\(sessions.count == 1 ? "" : "s") running.")
    return ExitCode.success
  }
}
