import Foundation
import PluginValues

/// The rule for what the daemon may load (OpenSSH's StrictModes, sudo's plugin checks): a
/// plugin file and every directory from its own up to `/` must be owned by root or by the
/// daemon's effective uid, and writable by no one else. Otherwise another user could replace
/// the code the daemon runs, or rename a directory on the way and put their own in its place.
/// Group- or world-writable means refused, with one exception: a directory owned by root with
/// the sticky bit (`/tmp`, mode 1777), where the kernel lets only an entry's owner, the
/// directory's owner or root rename or remove an entry, so the trusted entry below it cannot be
/// swapped.
enum PermissionCheck {
  /// The write bits for group and others.
  static let sharedWriteBits: mode_t = 0o022
  /// The sticky bit (`S_ISVTX`).
  static let stickyBit: mode_t = 0o1000

  /// The diagnostic for a library that fails the rule, naming the first offending path and
  /// the reason, or `nil` when the library and every directory above it are trusted.
  /// - Parameters:
  ///   - realPath: the library's real path (every symlink resolved), so the directories
  ///     checked are the ones the file really sits in.
  ///   - allowInsecure: report with severity warning ("loaded anyway") instead of error.
  ///   - trustedUID: the uid trusted besides root; the daemon's effective uid by default.
  static func problem(realPath: String, allowInsecure: Bool, trustedUID: uid_t = geteuid())
    -> PluginDiagnostic?
  {
    guard let what = untrustedPart(of: realPath, trustedUID: trustedUID) else { return nil }
    let consequence =
      allowInsecure
      ? "loading it anyway because allowInsecurePlugins is set"
      : "refused (set allowInsecurePlugins to load it anyway)"
    return PluginDiagnostic(
      .insecurePermissions, allowInsecure ? .warning : .error, path: realPath,
      "\(what); \(consequence)")
  }

  /// Why `realPath` or a directory above it is not trusted, or nil when all are.
  private static func untrustedPart(of realPath: String, trustedUID: uid_t) -> String? {
    if let reason = reason(FileSystem.ownerAndMode(of: realPath), trustedUID: trustedUID) {
      return "plugin file \(realPath) \(reason)"
    }
    var directory = FileSystem.directory(of: realPath)
    while true {
      if let reason = reason(FileSystem.ownerAndMode(of: directory), trustedUID: trustedUID) {
        return "directory \(directory) of plugin \(realPath) \(reason)"
      }
      if directory == "/" { return nil }
      directory = FileSystem.directory(of: directory)
    }
  }

  /// Why a file with this owner and mode is not trusted, or nil when it is.
  private static func reason(_ status: (uid: uid_t, mode: mode_t)?, trustedUID: uid_t)
    -> String?
  {
    guard let status else { return "cannot be examined" }
    if status.uid != 0 && status.uid != trustedUID {
      let trusted = trustedUID == 0 ? "root" : "root or uid \(trustedUID)"
      return "is owned by uid \(status.uid), not by \(trusted)"
    }
    let isStickyRootDirectory = status.uid == 0 && status.mode & stickyBit != 0
    if status.mode & sharedWriteBits != 0 && !isStickyRootDirectory {
      return "is writable by group or others (mode \(FileSystem.octal(status.mode)))"
    }
    return nil
  }
}
