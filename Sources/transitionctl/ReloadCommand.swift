import TransitionClient

/// `transitionctl reload`: re-reads the daemon's config and rescans its plugins (admin).
enum ReloadCommand: Command {
  static let name = "reload"
  static let summary = "Re-read the config and rescan plugins (admin)."
  static let usage = "reload [--json]"
  static let details = """
    Asks the daemon to re-read its configuration file and rescan its plugin path, like
    'systemctl reload'. Running sessions are not disturbed. Only root, the daemon's own user or
    its admin group may reload.

    options:
      --json, -j    print the daemon's reply as JSON

    exit status:
      0 reloaded, 1 reload failed (the reason is printed), 77 not allowed for this user,
      69 daemon unreachable

    example:
      transitionctl reload
      reloaded: 4 animators
    """
  static let flags: Set<String> = ["json"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    _ = try arguments.positionals(minimum: 0, maximum: 0, names: "", verb: name)
    guard
      let count = try context.query(
        .reload, json: arguments.has("json"),
        decode: { reply throws(ClientError) in try reply.object.int("animators") })
    else { return ExitCode.success }
    try context.output.line("reloaded: \(count) animator\(count == 1 ? "" : "s")")
    return ExitCode.success
  }
}
