import Foundation
import Glibc
import PluginLoader
import PluginValues
import Testing

/// Loading what someone else opened (the plugin host, handed descriptors by the daemon):
/// libraries through `/proc/self/fd/N`, reported under their real paths, and data animator
/// files read from their descriptors.
@Suite(.serialized) struct DescriptorLoadingTests {
  static func opened(_ path: String, kind: RegisteredAnimator.Kind, name: String = "")
    throws -> ScanFiles.File
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    try #require(descriptor >= 0, "cannot open \(path)")
    return ScanFiles.File(kind: kind, path: path, name: name, descriptor: descriptor)
  }

  static func emptyRegistry() -> PluginRegistry {
    PluginRegistry(
      configuration: .init(searchPath: PluginSearchPath(configured: [], executableDirectory: nil)))
  }

  @Test func librariesLoadFromDescriptorsUnderTheirRealPathsEvenWhenANumberIsReused() throws {
    let registry = Self.emptyRegistry()
    let crossfade = TestDirectory.productsDirectory + "/libCrossfade.so"
    let cubeTurn = TestDirectory.productsDirectory + "/libCubeTurn.so"
    let first = try Self.opened(crossfade, kind: .library)
    var announced: [Int] = []
    let report = registry.rescan(files: ScanFiles(files: [first])) { announced.append($0) }
    close(first.descriptor)
    #expect(announced == [0])
    #expect(report.loaded.map(\.libraryPath) == [crossfade])
    #expect(registry.animator(named: "crossfade")?.libraryPath == crossfade)
    // The next open most likely takes the number just closed: dlopen of the same name would
    // hand back the library already loaded.
    let second = try Self.opened(cubeTurn, kind: .library)
    let again = try Self.opened(crossfade, kind: .library)
    let later = registry.rescan(files: ScanFiles(files: [again, second]))
    close(second.descriptor)
    close(again.descriptor)
    #expect(later.loaded.map(\.libraryPath) == [cubeTurn], "\(later.diagnostics)")
    #expect(registry.animator(named: "cube-turn")?.libraryPath == cubeTurn)
    #expect(registry.plugins.count == 2)
    #expect(!later.diagnostics.contains { $0.message.contains("/proc/self/fd") })
  }

  @Test func aDataAnimatorIsReadFromItsDescriptorAndARefusedOneServesNothing() throws {
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { repository.deleteLastPathComponent() }
    let path = repository.appendingPathComponent("config/animators/album-flip.json").path
    let file = try Self.opened(path, kind: .data, name: "album-flip")
    defer { close(file.descriptor) }
    let refused = ScanFiles.File(
      kind: .data, path: "/elsewhere/zoom.json", name: "zoom", descriptor: -1,
      refusal: "directory /elsewhere is writable by group or others")
    let registry = Self.emptyRegistry()
    let report = registry.rescan(files: ScanFiles(files: [file, refused]))
    #expect(report.problems == [], "\(report.diagnostics)")
    #expect(registry.animator(named: "album-flip")?.libraryPath == path)
    #expect(registry.animator(named: "album-flip")?.error == nil)
    #expect(registry.animator(named: "zoom")?.error == refused.refusal)
    #expect(registry.animator(named: "zoom")?.operations.isEmpty == true)
  }

  @Test func scanFilesJudgesEachFileThroughItsDescriptorAndKeepsScanOrder() throws {
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { repository.deleteLastPathComponent() }
    let configuration = PluginRegistry.Configuration(
      searchPath: PluginSearchPath(
        configured: [TestDirectory.productsDirectory + "/libCrossfade.so", "/no/such/entry"],
        executableDirectory: nil),
      animatorPaths: [repository.appendingPathComponent("config/animators").path])
    let scan = ScanFiles.open(configuration, skipping: [])
    defer { scan.closeDescriptors() }
    #expect(scan.files.first?.kind == .library)
    #expect(scan.files.first?.path.hasSuffix("/libCrossfade.so") == true)
    #expect(scan.files.dropFirst().allSatisfy { $0.kind == .data })
    #expect(scan.files.map(\.name).contains("album-flip"))
    #expect(scan.files.allSatisfy { $0.descriptor >= 0 && $0.refusal == nil })
    #expect(scan.diagnostics.contains { $0.code == .missingPath && $0.path == "/no/such/entry" })
    // Skipped (quarantined) libraries are not opened.
    let skipped = ScanFiles.open(configuration, skipping: [scan.files[0].path])
    defer { skipped.closeDescriptors() }
    #expect(skipped.files.allSatisfy { $0.kind == .data })
  }

  /// A plugin host's share: one library, or the data animator files; the search for
  /// libraries alone reports each library's file version.
  @Test func aSelectionOpensOnlyItsShare() throws {
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { repository.deleteLastPathComponent() }
    let crossfade = TestDirectory.productsDirectory + "/libCrossfade.so"
    var configuration = PluginRegistry.Configuration(
      searchPath: PluginSearchPath(
        configured: [crossfade, TestDirectory.productsDirectory + "/libCubeTurn.so"],
        executableDirectory: nil),
      animatorPaths: [repository.appendingPathComponent("config/animators").path])
    configuration.selection = .libraries
    let libraries = ScanFiles.open(configuration, skipping: [])
    defer { libraries.closeDescriptors() }
    #expect(libraries.files.count == 2)
    #expect(libraries.files.allSatisfy { $0.kind == .library && $0.version?.isEmpty == false })
    let real = try #require(libraries.files.first?.path)
    configuration.selection = .library(real)
    let one = ScanFiles.open(configuration, skipping: [])
    defer { one.closeDescriptors() }
    #expect(one.files.map(\.path) == [real])
    #expect(one.files.first?.version == libraries.files.first?.version)
    configuration.selection = .dataAnimators
    let data = ScanFiles.open(configuration, skipping: [])
    defer { data.closeDescriptors() }
    #expect(!data.files.isEmpty && data.files.allSatisfy { $0.kind == .data })
  }
}
