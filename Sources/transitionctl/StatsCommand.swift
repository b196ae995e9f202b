import TransitionClient

/// `transitionctl stats`: the daemon's counters.
enum StatsCommand: Command {
  static let name = "stats"
  static let summary = "Show the daemon's counters."
  static let usage = "stats [--json]"
  static let details = """
    Prints every counter of the daemon, one a line, by dotted name: uptime, connections
    (current, total), sessions (active, completed, cancelled), frames (sent; rendered, once
    a frame however many read it; coalesced for slow readers), frame clock ticks (rendered,
    late: rendered after their deadline), bytes (sent, received) and sessions begun per
    animator.

    options:
      --json, -j    print the daemon's reply as JSON

    example:
      transitionctl stats
      uptime                 12.5 s
      connections.current    2
      frames.sent            1200
    """
  static let flags: Set<String> = ["json"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    _ = try arguments.positionals(minimum: 0, maximum: 0, names: "", verb: name)
    guard
      let stats = try context.query(
        .stats, json: arguments.has("json"), decode: Stats.init)
    else { return ExitCode.success }
    var table = TableFormatter(["COUNTER", "VALUE"])
    table.add(["uptime", NumberText.compact(stats.uptime, digits: 1) + " s"])
    for name in stats.counters.keys.sorted() where name != "uptime" {
      table.add([name, NumberText.compact(stats[name])])
    }
    for line in table.render().dropFirst() { try context.output.line(line) }
    return ExitCode.success
  }
}
