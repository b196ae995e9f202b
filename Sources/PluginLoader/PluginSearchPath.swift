import Foundation
import PluginValues

/// Where the host looks for plugins, in order: the configured entries, then
/// `TRANSITIOND_PLUGIN_PATH`, then the running executable's directory.
///
/// Each entry is a directory (its `lib*.so` files are loaded in name order) or a file (loaded
/// whatever its name). A library reached twice, directly or through symlinks, is loaded once,
/// from its first entry. Relative entries are resolved against the working directory; the
/// daemon resolves configured entries against the config file's directory before passing them.
/// The executable's directory makes `swift build` output work with no set-up, since
/// SwiftPM puts `lib<Name>.so` next to the executables.
public struct PluginSearchPath: Equatable, Sendable {
  /// The environment variable read by `init(configured:environment:includeExecutableDirectory:)`.
  public static let environmentVariable = "TRANSITIOND_PLUGIN_PATH"

  /// Entries from the config file.
  public var configured: [String]
  /// Entries from `TRANSITIOND_PLUGIN_PATH`.
  public var fromEnvironment: [String]
  /// The running executable's directory, or `nil` to leave it out.
  public var executableDirectory: String?

  /// A search path with every part given explicitly.
  public init(configured: [String], fromEnvironment: [String] = [], executableDirectory: String?) {
    self.configured = configured
    self.fromEnvironment = fromEnvironment
    self.executableDirectory = executableDirectory
  }

  /// The daemon's search path: `configured`, then `TRANSITIOND_PLUGIN_PATH` from
  /// `environment`, then (if `includeExecutableDirectory`) the running executable's directory.
  public init(
    configured: [String],
    environment: [String: String] = ProcessInfo.processInfo.environment,
    includeExecutableDirectory: Bool = true
  ) {
    self.init(
      configured: configured,
      fromEnvironment: Self.entries(inPathList: environment[Self.environmentVariable] ?? ""),
      executableDirectory: includeExecutableDirectory ? Self.runningExecutableDirectory() : nil)
  }

  /// Every entry in search order.
  public var entries: [String] {
    configured + fromEnvironment + (executableDirectory.map { [$0] } ?? [])
  }

  /// The entries of a colon-separated list; empty entries are dropped.
  public static func entries(inPathList list: String) -> [String] {
    list.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
  }

  /// The directory of the running executable (`/proc/self/exe`, symlinks resolved), or `nil`
  /// when it cannot be found.
  public static func runningExecutableDirectory() -> String? {
    guard let executable = FileSystem.realPath("/proc/self/exe") else { return nil }
    return FileSystem.directory(of: executable)
  }

  /// The candidate library files in search order, deduplicated by real path, with a
  /// diagnostic for every entry that is missing or cannot be listed, and one warning for each
  /// library name (an entry, or a `lib*.so` in a directory) that is a symlink loop or a
  /// dangling symlink, which is skipped. The executable's directory is never reported missing.
  func candidates() -> (realPaths: [String], diagnostics: [PluginDiagnostic]) {
    var seen = Set<String>()
    var realPaths: [String] = []
    var diagnostics: [PluginDiagnostic] = []
    func add(_ file: String) {
      guard let real = FileSystem.realPath(file), seen.insert(real).inserted else { return }
      realPaths.append(real)
    }
    let explicit = configured + fromEnvironment
    for (index, entry) in entries.enumerated() {
      switch FileSystem.kind(of: entry) {
      case .directory:
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: entry) else {
          diagnostics.append(
            PluginDiagnostic(
              .unreadableDirectory, .warning, path: entry,
              "plugin directory \(entry) cannot be listed; skipped"))
          continue
        }
        for name in names.filter(Self.isLibraryName).sorted() {
          let file = (entry as NSString).appendingPathComponent(name)
          if FileSystem.kind(of: file) == .file {
            add(file)
          } else if let broken = FileSystem.brokenLink(file) {
            diagnostics.append(
              PluginDiagnostic(
                .missingPath, .warning, path: file, "plugin \(file) \(broken); skipped"))
          }
        }
      case .file:
        add(entry)
      case .missing:
        if let broken = FileSystem.brokenLink(entry) {
          diagnostics.append(
            PluginDiagnostic(
              .missingPath, .warning, path: entry, "plugin path entry \(entry) \(broken); skipped"))
        } else if index < explicit.count {
          diagnostics.append(
            PluginDiagnostic(
              .missingPath, .warning, path: entry,
              access(entry, F_OK) != 0 && errno == EACCES
                ? "plugin path entry \(entry) cannot be reached by uid \(geteuid()) "
                  + "(permission denied on a directory above it)"
                : "plugin path entry \(entry) does not exist"))
        }
      }
    }
    return (realPaths, diagnostics)
  }

  /// Whether a directory entry's name is a library the scan loads (`lib*.so`).
  static func isLibraryName(_ name: String) -> Bool {
    name.hasPrefix("lib") && name.hasSuffix(".so") && name.count > "lib.so".count
  }
}
