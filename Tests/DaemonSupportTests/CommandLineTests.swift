import Testing
import TransitionServer

@testable import DaemonSupport

/// `transitiond`'s arguments: options with their value after a space or `=`, repeatable paths,
/// help and version, and one clear error for anything else.
@Suite struct CommandLineTests {
  @Test func noArgumentsRunWithTheDefaults() throws {
    #expect(try parseCommandLine([]) == .run(DaemonOptions()))
  }

  @Test func everyOptionIsReadWithItsValueAfterASpaceOrAnEqualsSign() throws {
    let request = try parseCommandLine([
      "--config", "/etc/t.json", "--socket=/run/t.sock", "--plugin-path", "/a",
      "--plugin-path=/b", "--animator-path", "/c", "--log-level=debug",
    ])
    #expect(
      request
        == .run(
          DaemonOptions(
            configPath: "/etc/t.json", socketPath: "/run/t.sock", pluginPaths: ["/a", "/b"],
            animatorPaths: ["/c"], logLevel: .debug)))
  }

  @Test func theViewerOptionsOverrideTheConfigsHTTPListenerAndPictures() throws {
    let request = try parseCommandLine([
      "--viewer", "127.0.0.1:7878", "--viewer-images=/srv/pictures",
    ])
    let options = DaemonOptions(
      viewerListen: HTTPListenAddress("127.0.0.1:7878"), viewerImages: "/srv/pictures")
    #expect(request == .run(options))
    let config = try options.effectiveConfig()
    #expect(config.http.listen?.description == "127.0.0.1:7878")
    #expect(config.http.images == "/srv/pictures")
    #expect(try DaemonOptions().effectiveConfig().http.listen == nil)
  }

  @Test func helpAndVersionWinOverWhatFollows() throws {
    #expect(try parseCommandLine(["--help", "--bogus"]) == .help)
    #expect(try parseCommandLine(["-h"]) == .help)
    #expect(try parseCommandLine(["--version"]) == .version)
  }

  @Test(arguments: [
    (["--socket"], "--socket needs a value"),
    (["--log-level", "loud"], "--log-level must be error, warn, info or debug, got loud"),
    (
      ["--viewer", "0.0.0.0:7878"],
      "--viewer must be a loopback address and port such as 127.0.0.1:7878, got 0.0.0.0:7878"
    ),
    (["--viewer-images", "pictures"], "--viewer-images must be an absolute path, got pictures"),
    (["--frobnicate"], "unknown argument --frobnicate (see transitiond --help)"),
    (["serve"], "unknown argument serve (see transitiond --help)"),
  ])
  func badArgumentsAreOneUsageError(arguments: [String], message: String) {
    #expect(throws: UsageError(message: message)) { try parseCommandLine(arguments) }
  }

  @Test func aBadCommandLineExitsWithUsageAndServesNothing() {
    var served = false
    let status = TransitiondCommand.run(["--frobnicate"]) { _ throws(StartupError) in
      served = true
    }
    #expect(status == 64)
    #expect(!served)
  }

  @Test func theDaemonIsServedWithTheOptionsAndItsStartupErrorIsTheExitStatus() {
    var given: DaemonOptions?
    let status = TransitiondCommand.run(["--config", "/nonexistent.json", "--socket", "/s"]) {
      options throws(StartupError) in
      given = options
      throw StartupError(
        exitStatus: StartupError.configStatus, "config /nonexistent.json: cannot be read")
    }
    #expect(status == 78)
    #expect(given == DaemonOptions(configPath: "/nonexistent.json", socketPath: "/s"))
    let clean = TransitiondCommand.run(["--config", "/nonexistent.json"]) {
      _ throws(StartupError) in
    }
    #expect(clean == 0)
  }
}
