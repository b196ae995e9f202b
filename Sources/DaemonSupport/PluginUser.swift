/// The account the plugin host runs as when the daemon runs as root (`pluginUser`).
public struct PluginUser: Equatable, Sendable {
  public var name: String
  public var uid: UInt32
  /// The user's primary group, which the host also becomes (and its only group).
  public var gid: UInt32

  /// Looks `name` up in the user database (`getpwnam_r`).
  /// - Throws: ``ConfigError`` when there is no such user.
  public static func resolve(named name: String, file: String?) throws(ConfigError) -> PluginUser {
    guard let account = UserDatabase.account(ofUser: name) else {
      throw ConfigError(file: file, "pluginUser names no user: \"\(name)\"")
    }
    return PluginUser(name: name, uid: account.uid, gid: account.gid)
  }
}
