import Foundation

/// Where an installed daemon finds its files, relative to its own executable
/// (docs/install.md): `<prefix>/bin/transitiond` beside `<prefix>/lib/transitiond/plugins`,
/// `<prefix>/share/transitiond/viewer` and `<prefix>/etc/transitiond/transitiond.json`. These
/// are defaults: a flag or config key that says otherwise wins.
public struct InstalledLayout {
  /// The directory of the running executable.
  public let executableDirectory: String

  /// The layout of the running executable (`/proc/self/exe`, symlinks resolved).
  public static var running: InstalledLayout {
    let path =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return InstalledLayout(executableDirectory: (path as NSString).deletingLastPathComponent)
  }

  /// The installation prefix: the parent of the executable's directory.
  var prefix: String { (executableDirectory as NSString).deletingLastPathComponent }

  /// `<prefix>/lib/transitiond/plugins`, searched after `TRANSITIOND_PLUGIN_PATH`.
  var pluginDirectory: String { prefix + "/lib/transitiond/plugins" }

  /// `<prefix>/share/transitiond/animators`, the installed data animators.
  public var animatorDirectory: String { prefix + "/share/transitiond/animators" }

  /// The checkout's `config/animators` when the executable is a `swift build` of it
  /// (`<checkout>/.build/<triple>/<configuration>/transitiond`), else nil.
  public var checkoutAnimatorDirectory: String? {
    var directory = executableDirectory
    for _ in 0..<4 {
      directory = (directory as NSString).deletingLastPathComponent
      let animators = directory + "/config/animators"
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: directory + "/Package.swift"),
        FileManager.default.fileExists(atPath: animators, isDirectory: &isDirectory),
        isDirectory.boolValue
      {
        return animators
      }
    }
    return nil
  }

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
