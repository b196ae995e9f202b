import Foundation
import PluginLoader
import Testing

/// `rescan()`, the daemon's reload: new libraries are added, loaded ones are left alone.
@Suite struct RescanTests {
  func counters(_ registry: PluginRegistry, _ animator: String) throws -> [String: Int] {
    guard case .timeline(let bytes) = registry.makeTimeline(animator: animator, contextJSON: [])
    else {
      Issue.record("\(animator) returned no timeline")
      return [:]
    }
    return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Int])
  }

  @Test func addsNewPluginsWithoutReloadingLoadedOnes() throws {
    let directory = try TestDirectory.make()
    let oldPath = TestDirectory.realPath(
      try CPluginFixture(pluginName: "old", animators: [.init(name: "old")])
        .build(in: directory, fileName: "libOld.so"))
    let registry = TestDirectory.registry([directory.path])
    #expect(registry.rescan().loaded.map(\.name) == ["old"])
    #expect(try counters(registry, "old") == ["entryCalls": 1, "calls": 1, "frees": 0])

    try CPluginFixture(pluginName: "new", animators: [.init(name: "new")])
      .build(in: directory, fileName: "libNew.so")
    let report = registry.rescan()
    #expect(report.loaded.map(\.name) == ["new"])
    #expect(report.diagnostics.allSatisfy { $0.path != oldPath })
    #expect(registry.animators.map(\.name) == ["old", "new"])
    #expect(registry.plugins.map(\.name) == ["old", "new"])
    // The old plugin's entry ran once and its state survived the rescan.
    #expect(try counters(registry, "old") == ["entryCalls": 1, "calls": 2, "frees": 1])
  }

  @Test func retriesARefusedPluginOnceItIsFixed() throws {
    let directory = try TestDirectory.make()
    let path = try CPluginFixture(animators: [.init(name: "fixed-later")]).build(in: directory)
    try TestDirectory.setMode(0o664, path)
    let registry = TestDirectory.registry([directory.path])
    #expect(registry.rescan().loaded == [])
    try TestDirectory.setMode(0o644, path)
    #expect(registry.rescan().loaded.map(\.animatorNames) == [["fixed-later"]])
    #expect(registry.animator(named: "fixed-later") != nil)
  }

  @Test func rescanCanTakeANewConfiguration() throws {
    let first = try TestDirectory.make()
    let second = try TestDirectory.make()
    try CPluginFixture(animators: [.init(name: "from-first")]).build(in: first)
    try CPluginFixture(animators: [.init(name: "from-second")]).build(in: second)
    let registry = TestDirectory.registry([first.path])
    registry.rescan()
    let configuration = PluginRegistry.Configuration(
      searchPath: PluginSearchPath(configured: [second.path], executableDirectory: nil))
    registry.rescan(with: configuration)
    #expect(registry.configuration == configuration)
    #expect(registry.animators.map(\.name) == ["from-first", "from-second"])
  }
}

/// A rescan never reloads a library, so it warns when a loaded one was rebuilt.
@Suite struct LibraryChangeTests {
  @Test func aRebuiltLibraryIsReportedAndTheLoadedCopyStays() throws {
    let directory = try TestDirectory.make()
    let path = try CPluginFixture(version: "1.0.0", animators: [.init(name: "rebuilt")])
      .build(in: directory)
    let registry = TestDirectory.registry([directory.path])
    #expect(registry.rescan().loaded.count == 1)
    #expect(registry.rescan().problems.isEmpty)
    // A rebuild replaces the file (the way `ld` and `install` do: a new inode).
    let fresh = try CPluginFixture(version: "2.0.0", animators: [.init(name: "rebuilt")])
      .build(in: directory, fileName: "libFresh.tmp")
    try FileManager.default.removeItem(atPath: path)
    try FileManager.default.moveItem(atPath: fresh, toPath: path)
    let report = registry.rescan()
    let changed = report.problems.filter { $0.code == .libraryChanged }
    #expect(changed.count == 1)
    #expect(changed.first?.severity == .warning)
    #expect(changed.first?.path == TestDirectory.realPath(path))
    #expect(
      changed.first?.message.hasSuffix(
        "changed on disk since it was loaded; the loaded copy stays in use until transitiond restarts"
      )
        == true)
    #expect(report.loaded.isEmpty)
    #expect(registry.plugins.map(\.version) == ["1.0.0"])
  }
}
