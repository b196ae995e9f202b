import Foundation
import Testing
import TransitionViewer

@testable import IntegrationSupport

/// `ViewerPage`: the page's file list matches its folder, the built page is found next to the
/// executables, and the installed layout is looked up first.
@Suite("viewer page files")
struct ViewerPageFilesTests {
  static let sourceDirectory = TransitionctlProducts.repository.appendingPathComponent(
    "Sources/TransitionViewer/viewer")

  @Test("fileNames lists exactly the files of Sources/TransitionViewer/viewer")
  func fileListMatchesTheFolder() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Self.sourceDirectory.path)
    #expect(Set(names) == Set(ViewerPage.fileNames))
    for name in ViewerPage.fileNames {
      #expect(ViewerPage.mediaType(of: name) != nil, "\(name) has no media type")
    }
    #expect(ViewerPage.mediaType(of: "../etc/passwd") == nil)
    #expect(ViewerPage.mediaType(of: "secret.js") == nil)
  }

  @Test("the built page is found next to the executables, with the same bytes as the sources")
  func builtPageFound() throws {
    let directory = try #require(
      ViewerPage.directory(executableDirectory: DaemonHarness.productsDirectory))
    for name in ViewerPage.fileNames {
      let built = FileManager.default.contents(atPath: directory + "/" + name)
      let source = FileManager.default.contents(
        atPath: Self.sourceDirectory.appendingPathComponent(name).path)
      #expect(built != nil && built == source, "\(name) differs from its source")
    }
  }

  @Test("an installed page (<prefix>/share/transitiond/viewer beside <prefix>/bin) comes first")
  func installedLayoutFirst() throws {
    let prefix = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    #expect(ViewerPage.directory(executableDirectory: prefix + "/bin") == nil)
    let page = prefix + "/share/transitiond/viewer"
    try FileManager.default.createDirectory(atPath: page, withIntermediateDirectories: true)
    try "<!DOCTYPE html>".write(toFile: page + "/index.html", atomically: true, encoding: .utf8)
    #expect(ViewerPage.directory(executableDirectory: prefix + "/bin") == page)
    #expect(ViewerPage.candidateDirectories(executableDirectory: prefix + "/bin").first == page)
  }
}
