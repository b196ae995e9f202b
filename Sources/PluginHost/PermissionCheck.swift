import Foundation

/// The rule that a plugin file and its directory are writable by their owner alone, as sudo
/// and OpenSSH require of what they load: otherwise anyone in the group (or anyone at all)
/// could replace the code the daemon runs.
enum PermissionCheck {
  /// The write bits for group and others.
  static let sharedWriteBits: mode_t = 0o022

  /// The diagnostic for a library whose file or directory is writable by group or others, or
  /// `nil` when both are safe.
  /// - Parameters:
  ///   - realPath: the library's real path (its directory is the one that matters).
  ///   - allowInsecure: report with severity warning ("loaded anyway") instead of error.
  static func problem(realPath: String, allowInsecure: Bool) -> PluginDiagnostic? {
    let directory = FileSystem.directory(of: realPath)
    let consequence =
      allowInsecure
      ? "loading it anyway because allowInsecurePlugins is set"
      : "refused (set allowInsecurePlugins to load it anyway)"
    let what: String
    if let mode = FileSystem.mode(of: realPath), mode & sharedWriteBits != 0 {
      what =
        "plugin file \(realPath) is writable by group or others (mode \(FileSystem.octal(mode)))"
    } else if let mode = FileSystem.mode(of: directory), mode & sharedWriteBits != 0 {
      what =
        "directory \(directory) of plugin \(realPath) is writable by group or others "
        + "(mode \(FileSystem.octal(mode)))"
    } else {
      return nil
    }
    return PluginDiagnostic(
      .insecurePermissions, allowInsecure ? .warning : .error, path: realPath,
      "\(what); \(consequence)")
  }
}
