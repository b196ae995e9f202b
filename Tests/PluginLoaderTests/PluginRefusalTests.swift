import Foundation
import PluginLoader
import PluginValues
import Testing

/// What the host refuses to load, and the messages it gives.
@Suite struct PluginRefusalTests {
  @Test func refusesAnotherABIVersionNamingBothVersions() throws {
    let directory = try TestDirectory.make()
    let path = try CPluginFixture(abiVersion: "2", animators: [.init(name: "future")])
      .build(in: directory)
    let registry = TestDirectory.registry([directory.path])
    let report = registry.rescan()
    #expect(report.loaded == [])
    #expect(registry.animators == [])
    let real = TestDirectory.realPath(path)
    #expect(
      report.diagnostics == [
        PluginDiagnostic(
          .abiMismatch, .error, path: real,
          "plugin \(real) has ABI version 2, transitiond speaks 1; refused")
      ])
  }

  @Test func firstAnimatorWithANameWinsAndTheRefusalNamesBothFiles() throws {
    let first = try TestDirectory.make()
    let second = try TestDirectory.make()
    let firstPath = TestDirectory.realPath(
      try CPluginFixture(pluginName: "one", animators: [.init(name: "shared")]).build(in: first))
    let secondPath = TestDirectory.realPath(
      try CPluginFixture(
        pluginName: "two", animators: [.init(name: "shared"), .init(name: "own")]
      ).build(in: second))
    let registry = TestDirectory.registry([first.path, second.path])
    let report = registry.rescan()
    #expect(registry.animator(named: "shared")?.pluginName == "one")
    #expect(registry.animator(named: "own")?.pluginName == "two")
    #expect(
      report.problems == [
        PluginDiagnostic(
          .duplicateAnimator, .warning, path: secondPath,
          "animator shared of plugin \(secondPath) is refused: the name is already taken by "
            + firstPath)
      ])
    #expect(registry.plugins.map(\.animatorNames) == [["shared"], ["own"]])
  }

  @Test func skipsALibraryWithoutTheEntrySymbolQuietly() throws {
    let directory = try TestDirectory.make()
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [], exportsEntry: false).build(in: directory))
    let report = TestDirectory.registry([directory.path]).rescan()
    #expect(report.loaded == [])
    #expect(report.problems == [])
    #expect(report.diagnostics.map(\.code) == [.notAPlugin])
    #expect(report.diagnostics.first?.severity == .debug)
    #expect(report.diagnostics.first?.path == path)
  }

  @Test func refusesAGroupWritablePluginFileNamingPathAndMode() throws {
    let directory = try TestDirectory.make()
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [.init(name: "writable")]).build(in: directory))
    try TestDirectory.setMode(0o664, path)
    let registry = TestDirectory.registry([directory.path])
    let report = registry.rescan()
    #expect(registry.animators == [])
    #expect(
      report.diagnostics == [
        PluginDiagnostic(
          .insecurePermissions, .error, path: path,
          "plugin file \(path) is writable by group or others (mode 0664); refused "
            + "(set allowInsecurePlugins to load it anyway)")
      ])
  }

  @Test func refusesAPluginInAWorldWritableDirectory() throws {
    let directory = try TestDirectory.make()
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [.init(name: "shared-dir")]).build(in: directory))
    let real = TestDirectory.realPath(directory.path)
    try TestDirectory.setMode(0o777, directory.path)
    defer { try? TestDirectory.setMode(0o755, directory.path) }
    let registry = TestDirectory.registry([path])
    let report = registry.rescan()
    #expect(registry.animators == [])
    #expect(report.diagnostics.map(\.code) == [.insecurePermissions])
    #expect(
      report.diagnostics.first?.message
        == "directory \(real) of plugin \(path) is writable by group or others (mode 0777); "
        + "refused (set allowInsecurePlugins to load it anyway)")
  }

  @Test func allowInsecurePluginsLoadsWithAWarning() throws {
    let directory = try TestDirectory.make()
    let path = try CPluginFixture(animators: [.init(name: "tolerated")]).build(in: directory)
    try TestDirectory.setMode(0o666, path)
    let registry = TestDirectory.registry([directory.path], allowInsecurePlugins: true)
    let report = registry.rescan()
    #expect(registry.animator(named: "tolerated") != nil)
    #expect(report.diagnostics.map(\.code) == [.insecurePermissions, .loaded])
    #expect(report.diagnostics.first?.severity == .warning)
    #expect(
      report.diagnostics.first?.message.hasSuffix(
        "loading it anyway because allowInsecurePlugins is set") == true)
  }

  @Test func refusesAPluginWhoseEntryReturnsNull() throws {
    let directory = try TestDirectory.make()
    try CPluginFixture(animators: [.init(name: "ghost")], entryReturnsNull: true).build(
      in: directory)
    let registry = TestDirectory.registry([directory.path])
    let report = registry.rescan()
    #expect(registry.animators == [])
    #expect(report.diagnostics.map(\.code) == [.invalidDescriptor])
  }

  @Test func refusesInvalidAnimatorsButKeepsTheValidOnes() throws {
    let directory = try TestDirectory.make()
    try CPluginFixture(animators: [
      .init(name: "Bad Name"),
      .init(name: "no-operations", operations: "0"),
      .init(name: "reserved-bit", operations: "0x10u"),
      .init(name: "zero-duration", defaultDuration: 0),
      .init(name: "good"),
    ]).build(in: directory)
    let registry = TestDirectory.registry([directory.path])
    let report = registry.rescan()
    #expect(registry.animators.map(\.name) == ["good"])
    #expect(report.problems.map(\.code) == Array(repeating: .invalidAnimator, count: 4))
    #expect(report.problems.first?.message.contains("animator #0 of plugin") == true)
    #expect(report.loaded.map(\.animatorNames) == [["good"]])
  }

  @Test func reportsALibraryThatCannotBeOpened() throws {
    let directory = try TestDirectory.make()
    let path = directory.appendingPathComponent("libBroken.so").path
    try "not an ELF file".write(toFile: path, atomically: true, encoding: .utf8)
    try TestDirectory.setMode(0o644, path)
    let report = TestDirectory.registry([directory.path]).rescan()
    #expect(report.loaded == [])
    #expect(report.diagnostics.map(\.code) == [.openFailed])
    #expect(
      report.diagnostics.first?.message.hasPrefix("cannot load \(TestDirectory.realPath(path)): ")
        == true)
  }
}
