import Foundation
import Testing
import TransitionServer

@testable import DaemonSupport

/// The command line's overrides on top of the config file (or the defaults).
@Suite struct DaemonOptionsTests {
  @Test func noFileAndNoOverridesGiveTheDefaults() throws {
    #expect(try DaemonOptions().effectiveConfig() == DaemonConfig())
  }

  @Test func overridesReplaceTheFileValues() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/transitiond.json"
    try Data(
      #"{"socket": "/from/file.sock", "pluginPaths": ["a", "b"], "logLevel": "error", "defaultFps": 30}"#
        .utf8
    ).write(to: URL(fileURLWithPath: path))

    let fileOnly = try DaemonOptions(configPath: path).effectiveConfig()
    #expect(fileOnly.socket == "/from/file.sock")
    #expect(fileOnly.pluginPaths == [directory + "/a", directory + "/b"])
    #expect(fileOnly.logLevel == .error)

    let overridden = try DaemonOptions(
      configPath: path, socketPath: "/cli.sock", pluginPaths: ["/cli/plugins"], logLevel: .debug
    ).effectiveConfig()
    #expect(overridden.socket == "/cli.sock")
    #expect(overridden.pluginPaths == ["/cli/plugins"])
    #expect(overridden.logLevel == .debug)
    #expect(overridden.defaultFps == 30)
  }

  @Test func aBadFileIsAConfigErrorNamingIt() throws {
    let path = "/nonexistent-\(UUID().uuidString)/transitiond.json"
    #expect(throws: ConfigError(file: path, "cannot be read")) {
      try DaemonOptions(configPath: path, socketPath: "/x.sock").effectiveConfig()
    }
  }
}
