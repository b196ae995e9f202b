import TransitionClient
import TransitionJSON
import TransitionWire

/// `transitionctl routes`: which animator serves each operation.
enum RoutesCommand: Command {
  static let name = "routes"
  static let summary = "Show which animator serves each operation."
  static let usage = "routes [--json]"
  static let details = """
    Prints the route table: for each operation (push, pop, present, dismiss) the animator that
    serves a 'begin' that names no animator. Change it with 'transitionctl use'.

    options:
      --json, -j    print the daemon's reply as JSON

    example:
      transitionctl routes
      OPERATION  ANIMATOR
      push       album-flip
      pop        album-flip
      present    zoom-present
      dismiss    zoom-present
    """
  static let flags: Set<String> = ["json"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    _ = try arguments.positionals(minimum: 0, maximum: 0, names: "", verb: name)
    try printRoutes(.routes, json: arguments.has("json"), context)
    return ExitCode.success
  }

  /// Sends `op` (`routes` or `route`) with `fields` and prints the `routes` of its reply as a
  /// table, or the whole payload as JSON.
  static func printRoutes(
    _ op: Op, _ fields: [String: JSONValue] = [:], json: Bool, _ context: CommandContext
  ) throws(CommandFailure) {
    guard let routes = try context.query(op, fields, json: json, decode: RouteTable.decode)
    else { return }
    var table = TableFormatter(["OPERATION", "ANIMATOR"])
    for operation in OperationOrder.sorted(routes.keys) {
      table.add([operation, routes[operation] ?? "-"])
    }
    for line in table.render() { try context.output.line(line) }
  }
}
