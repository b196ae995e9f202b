import Foundation
import PluginLoader
import Testing

/// The default set-up: the daemon's own directory holds every plugin `swift build` made.
@Suite struct ProductsDirectoryTests {
  @Test func loadsEveryBuiltPluginWithoutProblems() throws {
    let registry = PluginRegistry(
      configuration: .init(
        searchPath: PluginSearchPath(
          configured: [], fromEnvironment: [],
          executableDirectory: PluginSearchPath.runningExecutableDirectory())))
    let report = registry.rescan()
    #expect(report.problems == [])
    let built = try FileManager.default.contentsOfDirectory(atPath: TestDirectory.productsDirectory)
      .filter { $0.hasPrefix("lib") && $0.hasSuffix(".so") }
    // Every library SwiftPM built here is a plugin product of this package.
    #expect(report.loaded.count == built.count)
    #expect(registry.animator(named: "crossfade")?.pluginName == "crossfade")
  }
}
