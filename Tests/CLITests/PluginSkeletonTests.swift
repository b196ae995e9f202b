import Foundation
import Testing

@testable import IntegrationSupport

/// `make plugin NAME=… LANG=c|swift DIR=…` writes a skeleton outside the repository that builds
/// and passes `make check` (`transitiond check-plugin` on its own scene), exporting only the
/// entry symbol.
///
/// The Swift skeleton builds the SDK from this repository as a path dependency into its own
/// `.build`: about 40 s on an idle 2-core machine, several minutes while other builds run, so
/// the one build it needs has a 30-minute limit (a hung build fails the test rather than
/// hanging the suite; nothing here measures time).
@Suite struct PluginSkeletonTests {
  static let repository: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
  }()

  struct Finished {
    var status: Int32
    var output: String
  }

  /// Runs `arguments` (through `env`) in `directory` until it exits or `limit` seconds pass.
  static func run(_ arguments: [String], in directory: String, limit: Double = 600) throws
    -> Finished
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let box = DataBox()
    let read = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      box.data = output.fileHandleForReading.readDataToEndOfFile()
      read.signal()
    }
    let deadline = Date().addingTimeInterval(limit)
    while process.isRunning && Date() < deadline { usleep(100_000) }
    if process.isRunning { process.terminate() }
    process.waitUntilExit()
    read.wait()
    return Finished(
      status: process.terminationStatus, output: String(decoding: box.data, as: UTF8.self))
  }

  /// The output read on another thread while the process runs.
  final class DataBox: @unchecked Sendable {
    var data = Data()
  }

  /// Writes the skeleton, runs `make check` in it, and returns the built library's path.
  func makeAndCheck(lang: String, name: String, library: String, limit: Double) throws -> String {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    let skeleton = (directory as NSString).appendingPathComponent(name)
    let made = try Self.run(
      [
        "make", "--no-print-directory", "plugin", "NAME=\(name)", "LANG=\(lang)", "DIR=\(skeleton)",
      ],
      in: Self.repository)
    #expect(made.status == 0, "\(made.output)")
    #expect(made.output.contains("wrote the \(lang) plugin \(name) (\(library))"))
    let checked = try Self.run(
      [
        "make", "--no-print-directory", "check",
        "TRANSITIOND=\(DaemonHarness.product("transitiond"))",
      ],
      in: skeleton, limit: limit)
    #expect(checked.status == 0, "\(checked.output)")
    #expect(checked.output.contains("passed: 7 checks"), "\(checked.output)")
    #expect(checked.output.contains("ok: first frame: \(name) on scene.json (present)"))
    let found = try Self.run(["find", skeleton, "-name", library], in: skeleton)
    let path = found.output.split(separator: "\n").first.map(String.init) ?? ""
    let exported = try Self.run(["nm", "-D", "--defined-only", path], in: skeleton)
    let symbols = exported.output.split(separator: "\n").compactMap {
      $0.split(separator: " ").last
    }
    #expect(symbols == ["transitiond_plugin_entry"], "\(exported.output)")
    return path
  }

  @Test func theCSkeletonBuildsAndPassesItsCheck() throws {
    _ = try makeAndCheck(lang: "c", name: "tilt-away", library: "libTiltAway.so", limit: 300)
  }

  @Test func theSwiftSkeletonBuildsAgainstThisPackageAndPassesItsCheck() throws {
    _ = try makeAndCheck(
      lang: "swift", name: "fade-through", library: "libFadeThrough.so", limit: 1800)
  }

  @Test func theDataSkeletonPassesItsCheckAndAnEditThatBreaksItFails() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    let skeleton = (directory as NSString).appendingPathComponent("rise-in")
    let made = try Self.run(
      ["make", "--no-print-directory", "plugin", "NAME=rise-in", "LANG=json", "DIR=\(skeleton)"],
      in: Self.repository)
    #expect(made.status == 0, "\(made.output)")
    #expect(made.output.contains("wrote the data animator rise-in (rise-in.json)"))
    let check = [
      "make", "--no-print-directory", "check",
      "TRANSITIOND=\(DaemonHarness.product("transitiond"))",
    ]
    let checked = try Self.run(check, in: skeleton)
    #expect(checked.status == 0, "\(checked.output)")
    #expect(checked.output.contains("passed: 7 checks"), "\(checked.output)")
    let file = skeleton + "/rise-in.json"
    let text = try String(contentsOfFile: file, encoding: .utf8)
    try text.replacingOccurrences(of: #""to": 0}"#, with: #""to": "rize"}"#)
      .write(toFile: file, atomically: true, encoding: .utf8)
    let broken = try Self.run(check, in: skeleton)
    #expect(broken.status != 0)
    #expect(broken.output.contains("./rise-in.json:"), "\(broken.output)")
    #expect(broken.output.contains(#"/tracks/1/to: unknown name "rize""#), "\(broken.output)")
  }

  @Test func makePluginRefusesABadNameOrLanguage() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    let badName = try Self.run(
      ["make", "--no-print-directory", "plugin", "NAME=Bad Name", "LANG=c", "DIR=\(directory)/x"],
      in: Self.repository)
    #expect(badName.status != 0)
    #expect(badName.output.contains("NAME must be 1 to 64 characters"))
    let badLanguage = try Self.run(
      ["make", "--no-print-directory", "plugin", "NAME=ok", "LANG=rust", "DIR=\(directory)/y"],
      in: Self.repository)
    #expect(badLanguage.status != 0)
    #expect(badLanguage.output.contains("LANG must be c, swift or json"))
    #expect(!FileManager.default.fileExists(atPath: "\(directory)/y"))
  }
}
