import Foundation
import PluginHost

/// File-system helpers for the plugin tests.
enum TestDirectory {
  struct CommandFailed: Error, CustomStringConvertible {
    let command: String
    let output: String
    var description: String { "\(command) failed: \(output)" }
  }

  /// The package's root, found from this file's path.
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The directory of `transitiond_plugin.h`.
  static let pluginHeaderDirectory =
    packageRoot
    .appendingPathComponent("Sources/CTransitionPlugin/include").path

  /// The build products directory, where SwiftPM puts `lib<Name>.so` next to the test bundle.
  static var productsDirectory: String {
    Bundle.main.bundlePath
  }

  /// A new, empty directory with mode 0755 (only the owner may write).
  static func make() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("plugin-host-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try setMode(0o755, url.path)
    return url
  }

  static func setMode(_ mode: Int, _ path: String) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  /// The real path of `path` (temporary directories may sit behind symlinks).
  static func realPath(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// Runs a command to completion.
  /// - Throws: `CommandFailed` with its output when it exits non-zero.
  static func run(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CommandFailed(
        command: ([executable] + arguments).joined(separator: " "),
        output: String(decoding: data, as: UTF8.self))
    }
  }

  /// A registry over exactly `entries`, with no environment and no executable directory.
  static func registry(_ entries: [String], allowInsecurePlugins: Bool = false) -> PluginRegistry {
    PluginRegistry(
      configuration: .init(
        searchPath: PluginSearchPath(configured: entries, executableDirectory: nil),
        allowInsecurePlugins: allowInsecurePlugins))
  }
}
