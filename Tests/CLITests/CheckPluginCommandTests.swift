import Foundation
import Testing

@testable import IntegrationSupport

/// `transitiond check-plugin` as an author's CI runs it: the report on stdout, the exit status,
/// one line on stderr when it cannot run.
@Suite struct CheckPluginCommandTests {
  static func checkPlugin(_ arguments: [String]) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try DaemonHarness.runProgram(
      DaemonHarness.product("transitiond"), ["check-plugin"] + arguments)
  }

  @Test func aShippedPluginPassesOnTheExampleScenesFoundFromTheBinary() throws {
    let result = try Self.checkPlugin([DaemonHarness.product("libCrossfade.so")])
    #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains("ok: first frame: crossfade on default-slide-present.json"))
    #expect(result.stdout.hasSuffix("passed: 55 checks\n"), "\(result.stdout)")
  }

  @Test func aPluginThatFailsARuleExitsOne() throws {
    // Crossfade serves present and dismiss; a push scene alone exercises none of it.
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { repository.deleteLastPathComponent() }
    let scene = repository.appendingPathComponent("config/scenes/album-flip-push.json").path
    let result = try Self.checkPlugin([
      DaemonHarness.product("libCrossfade.so"), "--scene", scene,
    ])
    #expect(result.status == 1, "\(result.stdout)")
    #expect(
      result.stdout.contains("FAILED: coverage: crossfade: no scene has an operation it serves"))
    #expect(result.stdout.hasSuffix("failed: 1 of 2 checks\n"), "\(result.stdout)")
  }

  @Test func argumentsAndFilesThatCannotBeUsedAreOneLineAndASysexitsStatus() throws {
    let noLibrary = try Self.checkPlugin([])
    #expect(noLibrary.status == 64)
    #expect(noLibrary.stderr == "transitiond check-plugin: give a library: check-plugin LIB.so\n")
    let missing = try Self.checkPlugin(["/nonexistent/libX.so"])
    #expect(missing.status == 66)
    #expect(missing.stderr == "transitiond check-plugin: /nonexistent/libX.so: no such file\n")
    let badScene = try Self.checkPlugin([
      DaemonHarness.product("libCrossfade.so"), "--scene", "/nonexistent/scene.json",
    ])
    #expect(badScene.status == 66)
    #expect(badScene.stderr.contains("/nonexistent/scene.json: cannot read the scene"))
    let help = try Self.checkPlugin(["--help"])
    #expect(help.status == 0)
    #expect(
      help.stdout.hasPrefix(
        "usage: transitiond check-plugin LIB.so|ANIMATOR.json [--scene FILE]..."))
  }
}
