import TransitionClient

/// `transitionctl animators`: the loaded animators, with each operation's current route
/// marked.
enum AnimatorsCommand: Command {
  static let name = "animators"
  static let summary = "List the loaded animators and the operations each serves."
  static let usage = "animators [--json] [--quiet]"
  static let details = """
    Prints one row per animator: its name, the operations it serves, the plugin that provides
    it, the plugin's version and the default duration. An operation marked with '*' is
    currently routed to that animator (see 'transitionctl routes'). A quarantined animator (its plugin kept bringing
    the plugin host down; every begin it is chosen for falls back to default-slide until the
    next reload) is marked '(quarantined)', and each quarantined plugin is listed below the
    table with the reason. A data animator (PLUGIN 'data', docs/animators.md) whose file does
    not validate is listed with its error below the table, file:line:column: /pointer:
    message: its last good version serves meanwhile, or, when it never validated, it serves
    nothing (no operations).

    options:
      --json, -j    print the daemon's reply as JSON (animators and routes)
      --quiet, -q   print only the animator names, one a line

    example:
      transitionctl animators
      NAME           OPERATIONS                PLUGIN     VERSION  DURATION
      album-flip     push* pop*                data                1 s
      crossfade      present dismiss           crossfade  1.0.0    0.3 s
    """
  static let flags: Set<String> = ["json", "quiet"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    _ = try arguments.positionals(minimum: 0, maximum: 0, names: "", verb: name)
    guard
      let list = try context.query(
        .animators, json: arguments.has("json"), decode: AnimatorList.init)
    else { return ExitCode.success }
    if arguments.has("quiet") {
      for animator in list.animators { try context.output.line(animator.name) }
      return ExitCode.success
    }
    var table = TableFormatter(["NAME", "OPERATIONS", "PLUGIN", "VERSION", "DURATION"])
    for animator in list.animators {
      let operations = OperationOrder.sorted(animator.operations).map { operation in
        list.routes[operation] == animator.name ? operation + "*" : operation
      }
      table.add([
        animator.name + (animator.quarantined ? " (quarantined)" : ""),
        operations.joined(separator: " "), animator.plugin, animator.version,
        animator.duration.map { NumberText.compact($0) + " s" } ?? "-",
      ])
    }
    for line in table.render() { try context.output.line(line) }
    for animator in list.animators {
      if let error = animator.error { try context.output.line("\(animator.name): \(error)") }
    }
    for plugin in list.quarantinedPlugins {
      try context.output.line("quarantined: \(plugin.path): \(plugin.reason)")
    }
    try context.output.line("")
    try context.output.line(
      "\(list.animators.count) animator\(list.animators.count == 1 ? "" : "s"); * marks the current route of an operation."
    )
    return ExitCode.success
  }
}
