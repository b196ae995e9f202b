import Foundation
import PluginLoader

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

  /// A directory every plugin test directory sits in: `.build/plugin-host-tests` of the
  /// package, mode 0755. The host trusts a plugin only when every directory up to `/` is
  /// owned by root or the tester and writable by no one else (a root-owned sticky directory
  /// such as `/tmp` excepted); the package's own build directory is, wherever the tester may
  /// build, and tests that change modes keep to it.
  /// Emptied once per test process, so earlier runs leave nothing behind.
  static let trustedRoot: URL = {
    let url = packageRoot.appendingPathComponent(".build/plugin-host-tests")
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try? setMode(0o755, url.path)
    return url
  }()

  /// A new, empty directory with mode 0755 (only the owner may write), under ``trustedRoot``.
  static func make() throws -> URL {
    let url = trustedRoot.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    try setMode(0o755, url.path)
    return url
  }

  /// Whether the tests run as root, which the tests that hand files to another user need.
  static let isRoot = getuid() == 0

  /// An unprivileged uid that owns nothing of the tester's: `nobody`.
  static let otherUID: uid_t = 65_534

  /// Gives `path` to ``otherUID`` (the tests that call it run only as root).
  static func giveAway(_ path: String) throws {
    guard chown(path, otherUID, otherUID) == 0 else {
      throw CommandFailed(
        command: "chown \(otherUID) \(path)", output: String(cString: strerror(errno)))
    }
  }

  static func setMode(_ mode: Int, _ path: String) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  /// The real path of `path` (temporary directories may sit behind symlinks).
  static func realPath(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// Runs a command to completion.
  /// - Returns: its output (stdout and stderr).
  /// - Throws: `CommandFailed` with its output when it exits non-zero.
  @discardableResult
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
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
    return String(decoding: data, as: UTF8.self)
  }

  /// A registry over exactly `entries`, with no environment and no executable directory.
  static func registry(_ entries: [String], allowInsecurePlugins: Bool = false) -> PluginRegistry {
    PluginRegistry(
      configuration: .init(
        searchPath: PluginSearchPath(configured: entries, executableDirectory: nil),
        allowInsecurePlugins: allowInsecurePlugins))
  }
}
