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

  /// A symlink loop or a dangling symlink, in a directory or as an entry, is one warning each
  /// and skipped; the libraries beside it still load.
  @Test func brokenSymlinksAreOneWarningEachAndSkipped() throws {
    let directory = try TestDirectory.make()
    let manager = FileManager.default
    let good = directory.appendingPathComponent("libGood.so").path
    _ = manager.createFile(atPath: good, contents: Data())
    let loop = directory.appendingPathComponent("libLoop.so").path
    try manager.createSymbolicLink(atPath: loop, withDestinationPath: "libLoop.so")
    let dangling = directory.appendingPathComponent("libGone.so").path
    try manager.createSymbolicLink(atPath: dangling, withDestinationPath: "/nonexistent/libGone.so")
    let entryLoop = directory.appendingPathComponent("entry-loop").path
    try manager.createSymbolicLink(atPath: entryLoop, withDestinationPath: "entry-loop")
    let (files, diagnostics) = PluginSearchPath(
      configured: [directory.path, entryLoop, dangling], executableDirectory: nil
    ).candidates()
    #expect(files == [TestDirectory.realPath(good)])
    #expect(
      diagnostics == [
        PluginDiagnostic(
          .missingPath, .warning, path: dangling,
          "plugin \(dangling) is a dangling symlink to /nonexistent/libGone.so; skipped"),
        PluginDiagnostic(
          .missingPath, .warning, path: loop, "plugin \(loop) is a symlink loop; skipped"),
        PluginDiagnostic(
          .missingPath, .warning, path: entryLoop,
          "plugin path entry \(entryLoop) is a symlink loop; skipped"),
        PluginDiagnostic(
          .missingPath, .warning, path: dangling,
          "plugin path entry \(dangling) is a dangling symlink to /nonexistent/libGone.so; skipped"),
      ])
  }

  @Test func aMissingExecutableDirectoryIsNotReported() {
    let path = PluginSearchPath(configured: [], executableDirectory: "/nonexistent/bin")
    #expect(path.candidates().diagnostics == [])
  }
}
