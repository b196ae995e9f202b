/// The default location of the daemon's Unix socket, resolved the same way by the daemon and
/// by every client.
///
/// Order of precedence:
/// 1. `$TRANSITIOND_SOCKET`, when set and not empty;
/// 2. `$XDG_RUNTIME_DIR/transitiond/transitiond.sock`, when `XDG_RUNTIME_DIR` is set and not
///    empty;
/// 3. `/tmp/transitiond-<uid>/transitiond.sock`.
///
/// An explicit `--socket PATH` (or the daemon's `socket` config key) overrides all three; that
/// choice is made by the caller, not here. The caller also passes the environment and the uid
/// in: this reads neither the process's environment nor its uid.
public enum SocketPath {
  /// The environment variable that names the socket path for the daemon and its clients.
  public static let environmentVariable = "TRANSITIOND_SOCKET"

  /// The file name of the socket inside its directory for the default locations.
  public static let fileName = "transitiond.sock"

  /// Resolves the default socket path.
  ///
  /// - Parameters:
  ///   - environment: the environment to read (the process's, or a dictionary in tests).
  ///   - uid: the user id of the `/tmp` fallback: the calling process's real uid.
  /// - Returns: an absolute or relative path, exactly as the environment gave it.
  public static func resolve(environment: [String: String], uid: UInt32) -> String {
    if let explicit = environment[environmentVariable], !explicit.isEmpty {
      return explicit
    }
    if let runtimeDirectory = environment["XDG_RUNTIME_DIR"], !runtimeDirectory.isEmpty {
      let base =
        runtimeDirectory.hasSuffix("/") ? String(runtimeDirectory.dropLast()) : runtimeDirectory
      return "\(base)/transitiond/\(fileName)"
    }
    return "/tmp/transitiond-\(uid)/\(fileName)"
  }
}
