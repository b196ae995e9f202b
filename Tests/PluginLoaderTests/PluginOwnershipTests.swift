import Foundation
import Glibc
import PluginLoader
import PluginValues
import Testing

/// The StrictModes rule: a plugin file and every directory up to `/` must be owned by root or
/// the daemon's uid and writable by no one else. The tests that hand a file to another user
/// need root; they skip themselves otherwise.
@Suite struct PluginOwnershipTests {
  @Test(.enabled(if: TestDirectory.isRoot, "needs root to chown a plugin to another uid"))
  func refusesA0755PluginOwnedByAnotherUser() throws {
    let directory = try TestDirectory.make()
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [.init(name: "foreign")]).build(in: directory))
    try TestDirectory.setMode(0o755, path)
    try TestDirectory.giveAway(path)
    let registry = TestDirectory.registry([directory.path])
    let report = registry.rescan()
    #expect(registry.animators == [])
    #expect(
      report.diagnostics == [
        PluginDiagnostic(
          .insecurePermissions, .error, path: path,
          "plugin file \(path) is owned by uid 65534, not by root; refused "
            + "(set allowInsecurePlugins to load it anyway)")
      ])
  }

  @Test(.enabled(if: TestDirectory.isRoot, "needs root to chown a directory to another uid"))
  func refusesAPluginInADirectoryOwnedByAnotherUser() throws {
    let directory = try TestDirectory.make()
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [.init(name: "foreign-dir")]).build(in: directory))
    let real = TestDirectory.realPath(directory.path)
    try TestDirectory.giveAway(real)
    let report = TestDirectory.registry([path]).rescan()
    #expect(report.loaded == [])
    #expect(
      report.diagnostics.map(\.message) == [
        "directory \(real) of plugin \(path) is owned by uid 65534, not by root; refused "
          + "(set allowInsecurePlugins to load it anyway)"
      ])
  }

  @Test func refusesA0755DirectoryUnderA0777Parent() throws {
    let parent = try TestDirectory.make()
    let child = parent.appendingPathComponent("plugins")
    try FileManager.default.createDirectory(at: child, withIntermediateDirectories: false)
    try TestDirectory.setMode(0o755, child.path)
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [.init(name: "swappable")]).build(in: child))
    let realParent = TestDirectory.realPath(parent.path)
    try TestDirectory.setMode(0o777, realParent)
    defer { try? TestDirectory.setMode(0o755, realParent) }
    let registry = TestDirectory.registry([child.path])
    let report = registry.rescan()
    #expect(registry.animators == [])
    #expect(
      report.diagnostics.map(\.message) == [
        "directory \(realParent) of plugin \(path) is writable by group or others (mode 0777); "
          + "refused (set allowInsecurePlugins to load it anyway)"
      ])
  }

  /// A root-owned sticky directory (as `/tmp`) is trusted: no one else can rename or remove
  /// the entries below it that root owns.
  @Test(.enabled(if: TestDirectory.isRoot, "needs root to own a sticky directory"))
  func aStickyRootDirectoryIsTrusted() throws {
    let parent = try TestDirectory.make()
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [.init(name: "in-tmp-like")]).build(in: parent))
    let real = TestDirectory.realPath(parent.path)
    try TestDirectory.setMode(0o1777, real)
    defer { try? TestDirectory.setMode(0o755, real) }
    let registry = TestDirectory.registry([path])
    let report = registry.rescan()
    #expect(registry.animator(named: "in-tmp-like") != nil)
    #expect(report.diagnostics.map(\.code) == [.loaded])
  }

  /// The sticky bit protects entries only when root owns the directory; a sticky
  /// world-writable directory of any other owner is refused.
  @Test(.enabled(if: TestDirectory.isRoot, "needs root to chown a directory to another uid"))
  func aStickyDirectoryOfAnotherOwnerIsRefused() throws {
    let parent = try TestDirectory.make()
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [.init(name: "sticky-foreign")]).build(in: parent))
    let real = TestDirectory.realPath(parent.path)
    try TestDirectory.setMode(0o1777, real)
    try TestDirectory.giveAway(real)
    let report = TestDirectory.registry([path]).rescan()
    #expect(report.loaded == [])
    #expect(report.diagnostics.first?.message.contains("owned by uid 65534") == true)
  }

  /// Not root: a sticky world-writable directory of the tester's is refused.
  @Test(.enabled(if: !TestDirectory.isRoot, "as root the directory would belong to root"))
  func aStickyDirectoryOfTheTesterIsRefused() throws {
    let parent = try TestDirectory.make()
    let path = TestDirectory.realPath(
      try CPluginFixture(animators: [.init(name: "sticky-own")]).build(in: parent))
    let real = TestDirectory.realPath(parent.path)
    try TestDirectory.setMode(0o1777, real)
    defer { try? TestDirectory.setMode(0o755, real) }
    let report = TestDirectory.registry([path]).rescan()
    #expect(report.loaded == [])
    #expect(report.diagnostics.first?.message.contains("(mode 1777)") == true)
  }

  @Test(.enabled(if: TestDirectory.isRoot, "needs root to chown a plugin to another uid"))
  func allowInsecurePluginsLoadsAForeignPluginWithAWarning() throws {
    let directory = try TestDirectory.make()
    let path = try CPluginFixture(animators: [.init(name: "tolerated-foreign")]).build(
      in: directory)
    try TestDirectory.giveAway(path)
    let registry = TestDirectory.registry([directory.path], allowInsecurePlugins: true)
    let report = registry.rescan()
    #expect(registry.animator(named: "tolerated-foreign") != nil)
    #expect(report.diagnostics.map(\.code) == [.insecurePermissions, .loaded])
    #expect(report.diagnostics.first?.severity == .warning)
  }

  @Test func theBuiltPluginsSitInATrustedChain() throws {
    // The daemon's own tests load the plugins from the build directory: it must pass too.
    let directory = TestDirectory.realPath(TestDirectory.productsDirectory)
    let registry = TestDirectory.registry([directory])
    let report = registry.rescan()
    #expect(report.diagnostics.filter { $0.code == .insecurePermissions } == [])
    #expect(registry.animator(named: "cube-turn") != nil)
  }

  @Test func theCheckoutsDataAnimatorsSitInATrustedChain() throws {
    // A daemon run from the build reads the checkout's config/animators: it must pass too.
    let directory = TestDirectory.packageRoot.appendingPathComponent("config/animators").path
    let registry = PluginRegistry(
      configuration: .init(
        searchPath: PluginSearchPath(configured: [], executableDirectory: nil),
        animatorPaths: [TestDirectory.realPath(directory)]))
    let report = registry.rescan()
    #expect(report.diagnostics.filter { $0.code == .insecurePermissions } == [])
    #expect(registry.animator(named: "album-flip") != nil)
  }
}
