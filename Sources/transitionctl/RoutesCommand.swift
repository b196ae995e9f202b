import TransitionClient

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
    let reply = try context.withClient { client throws(ClientError) in
      try client.request(["op": "routes"])
    }
    try printRoutes(reply, json: arguments.has("json"), to: context.output)
    return ExitCode.success
  }

  /// Prints the `routes` field of `reply` as a table, or the whole payload as JSON.
  static func printRoutes(_ reply: Reply, json: Bool, to output: OutputWriter)
    throws(CommandFailure)
  {
    if json {
      try output.line(JSONOutput.payload(of: reply))
      return
    }
    guard let routes = reply.payload["routes"] as? [String: Any] else {
      throw CommandFailure(ExitCode.protocolError, "unexpected answer from transitiond: no routes")
    }
    var table = TableFormatter(["OPERATION", "ANIMATOR"])
    for operation in OperationOrder.sorted(routes.keys) {
      table.add([operation, routes[operation] as? String ?? "-"])
    }
    for line in table.render() { try output.line(line) }
  }
}
