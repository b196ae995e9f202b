import TransitionClient

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
}
