import Foundation
import PluginValues
import Testing

@testable import PluginLoader

/// The search path: order, environment variable, directory scanning and deduplication.
@Suite struct PluginSearchPathTests {
  @Test func ordersConfigThenEnvironmentThenExecutableDirectory() {
    let path = PluginSearchPath(
      configured: ["/etc/transitiond/plugins"],
      environment: ["TRANSITIOND_PLUGIN_PATH": "/opt/a::/opt/b:"],
      includeExecutableDirectory: true)
    #expect(path.fromEnvironment == ["/opt/a", "/opt/b"])
    #expect(path.executableDirectory == PluginSearchPath.runningExecutableDirectory())
    #expect(
      path.entries == ["/etc/transitiond/plugins", "/opt/a", "/opt/b"]
        + [PluginSearchPath.runningExecutableDirectory()].compactMap { $0 })
  }

  @Test func leavesOutWhatIsNotAsked() {
    let path = PluginSearchPath(configured: [], environment: [:], includeExecutableDirectory: false)
    #expect(path.entries == [])
  }

  @Test func executableDirectoryIsTheTestBundlesDirectory() {
    #expect(
      PluginSearchPath.runningExecutableDirectory()
        == TestDirectory.realPath(TestDirectory.productsDirectory))
  }

  @Test func scansLibrariesByNameAndDedupesByRealPath() throws {
    let directory = try TestDirectory.make()
    let other = try TestDirectory.make()
    let manager = FileManager.default
    for name in ["libB.so", "libA.so", "notlib.so", "libC.so.1", "README", "lib.so"] {
      _ = manager.createFile(atPath: directory.appendingPathComponent(name).path, contents: Data())
    }
    try manager.createDirectory(
      at: directory.appendingPathComponent("libDir.so"), withIntermediateDirectories: false)
    let explicit = other.appendingPathComponent("custom-plugin.bin").path
    _ = manager.createFile(atPath: explicit, contents: Data())
    try manager.createSymbolicLink(
      atPath: other.appendingPathComponent("libAlias.so").path,
      withDestinationPath: directory.appendingPathComponent("libA.so").path)
    let missing = other.appendingPathComponent("missing").path

    let path = PluginSearchPath(
      configured: [directory.path, explicit, missing], fromEnvironment: [other.path],
      executableDirectory: nil)
    let (files, diagnostics) = path.candidates()
    let real = TestDirectory.realPath(directory.path)
    #expect(
      files == [
        real + "/libA.so", real + "/libB.so", TestDirectory.realPath(explicit),
      ])
    #expect(
      diagnostics == [
        PluginDiagnostic(
          .missingPath, .warning, path: missing, "plugin path entry \(missing) does not exist")
      ])
  }

  @Test func aMissingExecutableDirectoryIsNotReported() {
    let path = PluginSearchPath(configured: [], executableDirectory: "/nonexistent/bin")
    #expect(path.candidates().diagnostics == [])
  }
}
