import TransitionClient
import TransitionJSON
import TransitionWire

/// What every verb needs besides its arguments: where the daemon is and where output goes.
struct CommandContext {
  /// The daemon's socket path (`--socket`, else `$TRANSITIOND_SOCKET`, else the default).
  let socketPath: String
  /// Standard output.
  let output: OutputWriter

  /// Connects to the daemon.
  ///
  /// - Throws: ``ExitCode/unavailable`` with "cannot connect to PATH: is transitiond running?".
  func connect() throws(CommandFailure) -> DaemonClient {
    do {
      return try DaemonClient(path: socketPath)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// Runs `body` with a connected client, mapping client errors to exit statuses.
  func withClient<Result>(_ body: (DaemonClient) throws(ClientError) -> Result)
    throws(CommandFailure) -> Result
  {
    let client = try connect()
    defer { client.close() }
    do {
      return try body(client)
    } catch {
      throw CommandFailure(error)
    }
  }

  /// The body of every read command: sends `op` with `fields` and, with `--json`, prints the
  /// reply's payload (plus `extra` members) and returns nil; otherwise returns the reply decoded
  /// by `decode` for the command to print as text.
  ///
  /// - Throws: the ``CommandFailure`` of a client error, a refusal or a malformed reply.
  func query<Decoded>(
    _ op: Op, _ fields: [String: JSONValue] = [:], json: Bool,
    adding extra: [String: JSONValue] = [:], decode: (Reply) throws(ClientError) -> Decoded
  ) throws(CommandFailure) -> Decoded? {
    let reply = try withClient { client throws(ClientError) in try client.request(op, fields) }
    if json {
      try output.line(JSONOutput.payload(of: reply, adding: extra))
      return nil
    }
    do { return try decode(reply) } catch { throw CommandFailure(error) }
  }
}
