import TransitionClient

/// `transitionctl reload`: re-reads the daemon's config and rescans its plugins (admin).
enum ReloadCommand: Command {
  static let name = "reload"
  static let summary = "Re-read the config and rescan plugins (admin)."
  static let usage = "reload [--json]"
  static let details = """
    Asks the daemon to re-read its configuration file and rescan its plugin path, like
    'systemctl reload'. Running sessions are not disturbed. Only root, the daemon's own user or
    its admin group may reload. The daemon answers when its plugin host has rescanned: the
    count is the animators loaded then, and what the rescan refused or warned about is printed
    on standard error, such as a loaded plugin rebuilt on disk, which only a restart picks up.

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
      let (count, messages) = try context.query(
        .reload, json: arguments.has("json"),
        decode: { reply throws(ClientError) in
          let diagnostics = reply.fields["diagnostics"]?.arrayValue ?? []
          return (
            try reply.object.int("animators"),
            diagnostics.compactMap { $0["message"]?.stringValue }
          )
        })
    else { return ExitCode.success }
    // What the plugin scan refused or warned about (a rebuilt library needs a restart).
    for message in messages { StandardStreams.note(message) }
    try context.output.line("reloaded: \(count) animator\(count == 1 ? "" : "s")")
    return ExitCode.success
  }
}
