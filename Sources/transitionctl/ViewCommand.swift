import TransitionClient
import TransitionJSON

/// `transitionctl view`: prints the URL of the running daemon's viewer page.
enum ViewCommand: Command {
  static let name = "view"
  static let summary = "Print the URL of the daemon's live viewer page."
  static let usage = "view [--json]"
  static let details = """
    Asks the daemon (hello) for the URL of its viewer: the page served by its HTTP listener,
    with the token every request needs (http://127.0.0.1:7878/?token=...). Open it in a
    browser on this machine to see every session drawn as it streams. The daemon gives the
    URL only to clients of its Unix socket, whose permissions already decide who may watch.

    The listener is off unless the daemon's config sets http.listen (docs/viewer.md):
      "http": {"listen": "127.0.0.1:7878"}

    options:
      --json, -j    print {"viewer": URL}

    exit status:
      0 the URL was printed, 69 the daemon is unreachable or its viewer is off

    example:
      chromium "$(transitionctl view)"
    """
  static let flags: Set<String> = ["json"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    _ = try arguments.positionals(minimum: 0, maximum: 0, names: "", verb: name)
    let info = try context.withClient { client throws(ClientError) in
      try client.hello(client: "transitionctl")
    }
    guard let url = info.viewer else {
      throw CommandFailure(
        ExitCode.unavailable,
        "the daemon's viewer is off: set http.listen (\"http\": {\"listen\": \"127.0.0.1:7878\"}) in its "
          + "config and restart it (docs/viewer.md)")
    }
    if arguments.has("json") {
      try context.output.line(JSONValue.object(["viewer": .string(url)]).prettyPrinted)
    } else {
      try context.output.line(url)
    }
    return ExitCode.success
  }
}
