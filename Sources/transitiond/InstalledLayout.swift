import Foundation

/// Where an installed daemon finds its files, relative to its own executable
/// (docs/install.md): `<prefix>/bin/transitiond` beside `<prefix>/lib/transitiond/plugins`,
/// `<prefix>/share/transitiond/viewer` and `<prefix>/etc/transitiond/transitiond.json`. These
/// are defaults: a flag or config key that says otherwise wins.
struct InstalledLayout {
  /// The directory of the running executable.
  let executableDirectory: String

  /// The layout of the running executable (`/proc/self/exe`, symlinks resolved).
  static var running: InstalledLayout {
    let path =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return InstalledLayout(executableDirectory: (path as NSString).deletingLastPathComponent)
  }

  /// The installation prefix: the parent of the executable's directory.
  var prefix: String { (executableDirectory as NSString).deletingLastPathComponent }

  /// `<prefix>/lib/transitiond/plugins`, searched after `TRANSITIOND_PLUGIN_PATH`.
  var pluginDirectory: String { prefix + "/lib/transitiond/plugins" }

  /// The config files tried, in order, when no `--config` is given.
  var configCandidates: [String] {
    [prefix + "/etc/transitiond/transitiond.json", "/etc/transitiond/transitiond.json"]
  }

  /// The first of ``configCandidates`` that exists, or nil for the built-in defaults.
  func defaultConfig(exists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) })
    -> String?
  {
    configCandidates.first(where: exists)
  }
}
