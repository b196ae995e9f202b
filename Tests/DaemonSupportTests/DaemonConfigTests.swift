import Foundation
import Testing
import TransitionKit
import TransitionServer

@testable import DaemonSupport

/// Decoding the daemon's configuration: defaults for absent keys, every key read, and every
/// bad value refused with a message that names its key path.
@Suite struct DaemonConfigTests {
  @Test func emptyObjectGivesTheDocumentedDefaults() throws {
    let config = try decodedConfig("{}")
    #expect(config == DaemonConfig())
    #expect(config.socket == "")
    #expect(config.socketMode == 0o600)
    #expect(config.pluginPaths == [])
    #expect(config.allowInsecurePlugins == false)
    #expect(
      config.routes == [
        .push: "album-flip", .pop: "album-flip", .present: "zoom-present",
        .dismiss: "zoom-present",
      ])
    #expect(config.defaultFps == 60)
    #expect(config.logLevel == .info)
    #expect(config.adminGroup == "")
    #expect(config.limits.maxLineBytes == 65_536)
    #expect(config.limits.maxClients == 256)
    #expect(config.limits.maxSessions == 1_024)
    #expect(config.limits.maxSubscriptionsPerClient == 64)
    #expect(config.limits.maxLayersPerContext == 512)
    #expect(config.limits.subscriberSoftLimitBytes == 1_048_576)
    #expect(config.limits.subscriberHardLimitBytes == 8_388_608)
    #expect(config.limits.subscriberSoftLimitSeconds == 5)
  }

  @Test func everyTopLevelKeyIsRead() throws {
    let config = try decodedConfig(
      """
      {"socket": "/run/t.sock", "socketMode": "0660", "pluginPaths": ["/opt/plugins"],
       "allowInsecurePlugins": true, "routes": {"push": "default-slide"}, "defaultFps": 120,
       "logLevel": "debug", "adminGroup": "staff"}
      """)
    #expect(config.socket == "/run/t.sock")
    #expect(config.socketMode == 0o660)
    #expect(config.pluginPaths == ["/opt/plugins"])
    #expect(config.allowInsecurePlugins)
    #expect(config.defaultFps == 120)
    #expect(config.logLevel == .debug)
    #expect(config.adminGroup == "staff")
    #expect(config.limits == ServerLimits())
  }

  @Test func routesGivenReplaceOnlyTheirOperations() throws {
    let config = try decodedConfig(#"{"routes": {"push": "default-slide", "dismiss": "x"}}"#)
    #expect(
      config.routes == [
        .push: "default-slide", .pop: "album-flip", .present: "zoom-present", .dismiss: "x",
      ])
  }

  @Test func everyLimitIsRead() throws {
    let config = try decodedConfig(
      """
      {"limits": {"maxLineBytes": 1000, "maxClients": 2, "maxSessions": 3,
                  "maxSubscriptionsPerClient": 4, "maxLayersPerContext": 5,
                  "subscriberSoftLimitBytes": 600, "subscriberHardLimitBytes": 700,
                  "subscriberSoftLimitSeconds": 0.25}}
      """)
    #expect(config.limits.maxLineBytes == 1000)
    #expect(config.limits.maxClients == 2)
    #expect(config.limits.maxSessions == 3)
    #expect(config.limits.maxSubscriptionsPerClient == 4)
    #expect(config.limits.maxLayersPerContext == 5)
    #expect(config.limits.subscriberSoftLimitBytes == 600)
    #expect(config.limits.subscriberHardLimitBytes == 700)
    #expect(config.limits.subscriberSoftLimitSeconds == 0.25)
  }

  @Test func everyQuotaIsRead() throws {
    let limits = try decodedConfig(
      """
      {"limits": {"maxClientsPerUser": 6, "partialLineSeconds": 2.5, "maxSessionsPerClient": 7,
                  "maxSessionsPerUser": 8, "maxSessionSeconds": 90}}
      """
    ).limits
    #expect(limits.maxClientsPerUser == 6)
    #expect(limits.partialLineSeconds == 2.5)
    #expect(limits.maxSessionsPerClient == 7)
    #expect(limits.maxSessionsPerUser == 8)
    #expect(limits.maxSessionSeconds == 90)
    let defaults = try decodedConfig("{}").limits
    #expect(defaults.maxClientsPerUser == 64)
    #expect(defaults.partialLineSeconds == 10)
    #expect(defaults.maxSessionsPerClient == 64)
    #expect(defaults.maxSessionsPerUser == 256)
    #expect(defaults.maxSessionSeconds == 3600)
  }

  @Test func everyPluginHostKeyIsRead() throws {
    let config = try decodedConfig(
      """
      {"pluginUser": "daemon",
       "limits": {"pluginCallTimeoutMs": 100, "pluginLoadTimeoutMs": 900,
                  "maxTimelineBytes": 2048, "pluginMemoryBytes": 134217728,
                  "pluginCPUSeconds": 30, "pluginRestartBackoffMs": 20,
                  "pluginRestartBackoffMaxMs": 400, "pluginQuarantineStrikes": 5}}
      """)
    #expect(config.pluginUser == "daemon")
    let limits = config.limits
    #expect(limits.pluginCallTimeoutMs == 100)
    #expect(limits.pluginLoadTimeoutMs == 900)
    #expect(limits.maxTimelineBytes == 2048)
    #expect(limits.pluginMemoryBytes == 134_217_728)
    #expect(limits.pluginCPUSeconds == 30)
    #expect(limits.pluginRestartBackoffMs == 20)
    #expect(limits.pluginRestartBackoffMaxMs == 400)
    #expect(limits.pluginQuarantineStrikes == 5)
    let defaults = try decodedConfig("{}")
    #expect(defaults.pluginUser == "nobody")
    #expect(defaults.limits.pluginCallTimeoutMs == 250)
    #expect(defaults.limits.maxTimelineBytes == 8 << 20)
  }

  @Test func socketModeAcceptsOctalStrings() throws {
    #expect(try decodedConfig(#"{"socketMode": "660"}"#).socketMode == 0o660)
    #expect(try decodedConfig(#"{"socketMode": "0777"}"#).socketMode == 0o777)
    #expect(try decodedConfig(#"{"socketMode": "0"}"#).socketMode == 0)
  }

  @Test(arguments: [
    (#"{"sockt": ""}"#, "sockt"),
    (#"{"limits": {"maxClient": 3}}"#, "limits.maxClient"),
    (#"{"routes": {"push": "a", "swipe": "b"}}"#, "routes.swipe"),
  ])
  func unknownKeysAreRefusedByPath(text: String, keyPath: String) throws {
    let error = try #require(configError(decoding: text))
    #expect(error.file == nil)
    #expect(error.message.hasPrefix(keyPath + " "), "\(error.message)")
  }

  @Test(arguments: [
    (#"{"socket": 1}"#, "socket"),
    (#"{"socketMode": 384}"#, "socketMode"),
    (#"{"pluginPaths": "/opt"}"#, "pluginPaths"),
    (#"{"pluginPaths": ["/opt", 3]}"#, "pluginPaths[1]"),
    (#"{"allowInsecurePlugins": "yes"}"#, "allowInsecurePlugins"),
    (#"{"routes": ["push"]}"#, "routes"),
    (#"{"routes": {"push": 1}}"#, "routes.push"),
    (#"{"defaultFps": "60"}"#, "defaultFps"),
    (#"{"logLevel": 2}"#, "logLevel"),
    (#"{"adminGroup": false}"#, "adminGroup"),
    (#"{"limits": 5}"#, "limits"),
    (#"{"limits": {"maxClients": "many"}}"#, "limits.maxClients"),
    (#"{"limits": {"subscriberSoftLimitSeconds": true}}"#, "limits.subscriberSoftLimitSeconds"),
  ])
  func wrongTypesAreRefusedByPath(text: String, keyPath: String) throws {
    let error = try #require(configError(decoding: text))
    #expect(error.message.hasPrefix(keyPath + " "), "\(error.message)")
  }

  @Test(arguments: [
    (#"{"defaultFps": 0}"#, "defaultFps"),
    (#"{"defaultFps": 241}"#, "defaultFps"),
    (#"{"defaultFps": 0.5}"#, "defaultFps"),
    (#"{"socketMode": "0800"}"#, "socketMode"),
    (#"{"socketMode": "01777"}"#, "socketMode"),
    (#"{"socketMode": "rw-------"}"#, "socketMode"),
    (#"{"socketMode": ""}"#, "socketMode"),
    (#"{"logLevel": "verbose"}"#, "logLevel"),
    (#"{"pluginPaths": [""]}"#, "pluginPaths[0]"),
    (#"{"routes": {"pop": ""}}"#, "routes.pop"),
    (#"{"limits": {"maxClients": 0}}"#, "limits.maxClients"),
    (#"{"limits": {"maxSessions": -1}}"#, "limits.maxSessions"),
    (#"{"limits": {"maxSubscriptionsPerClient": 2.5}}"#, "limits.maxSubscriptionsPerClient"),
    (#"{"limits": {"maxLayersPerContext": 1e16}}"#, "limits.maxLayersPerContext"),
    (#"{"limits": {"maxLineBytes": 255}}"#, "limits.maxLineBytes"),
    (#"{"limits": {"maxClientsPerUser": 0}}"#, "limits.maxClientsPerUser"),
    (#"{"limits": {"partialLineSeconds": 0}}"#, "limits.partialLineSeconds"),
    (#"{"limits": {"maxSessionsPerClient": 1.5}}"#, "limits.maxSessionsPerClient"),
    (#"{"limits": {"maxSessionsPerUser": -2}}"#, "limits.maxSessionsPerUser"),
    (#"{"limits": {"maxSessionSeconds": -1}}"#, "limits.maxSessionSeconds"),
    (#"{"limits": {"subscriberSoftLimitSeconds": -1}}"#, "limits.subscriberSoftLimitSeconds"),
    (#"{"pluginUser": ""}"#, "pluginUser"),
    (#"{"limits": {"pluginCallTimeoutMs": 0}}"#, "limits.pluginCallTimeoutMs"),
    (#"{"limits": {"maxTimelineBytes": 1023}}"#, "limits.maxTimelineBytes"),
    (#"{"limits": {"pluginMemoryBytes": 1048576}}"#, "limits.pluginMemoryBytes"),
    (#"{"limits": {"pluginQuarantineStrikes": 0}}"#, "limits.pluginQuarantineStrikes"),
    (
      #"{"limits": {"subscriberSoftLimitBytes": 2000, "subscriberHardLimitBytes": 1000}}"#,
      "limits.subscriberSoftLimitBytes"
    ),
  ])
  func outOfRangeValuesAreRefusedByPath(text: String, keyPath: String) throws {
    let error = try #require(configError(decoding: text))
    #expect(error.message.hasPrefix(keyPath + " "), "\(error.message)")
  }

  @Test func fpsBoundsAreInclusive() throws {
    #expect(try decodedConfig(#"{"defaultFps": 1}"#).defaultFps == 1)
    #expect(try decodedConfig(#"{"defaultFps": 240}"#).defaultFps == 240)
  }

  @Test func smallestLimitsAreAccepted() throws {
    let limits = try decodedConfig(
      """
      {"limits": {"maxLineBytes": 256, "maxClients": 1, "subscriberSoftLimitBytes": 5,
                  "subscriberHardLimitBytes": 5, "subscriberSoftLimitSeconds": 0}}
      """
    ).limits
    #expect(limits.maxLineBytes == 256)
    #expect(limits.maxClients == 1)
    #expect(limits.subscriberSoftLimitBytes == limits.subscriberHardLimitBytes)
    #expect(limits.subscriberSoftLimitSeconds == 0)
  }

  @Test func aSoftLimitAboveTheDefaultHardLimitIsRefused() throws {
    let error = try #require(
      configError(decoding: #"{"limits": {"subscriberSoftLimitBytes": 9000000}}"#))
    #expect(error.message.contains("limits.subscriberHardLimitBytes (8388608)"), "\(error.message)")
  }

  @Test func nonObjectDocumentIsRefused() throws {
    let error = try #require(configError(decoding: "[]"))
    #expect(error.message.contains("must be a JSON object"))
  }

  @Test func relativePluginPathsResolveAgainstTheConfigDirectory() throws {
    let config = try decodedConfig(
      #"{"pluginPaths": ["plugins", "../lib/x.so", "/abs/dir"]}"#, baseDirectory: "/etc/td")
    #expect(config.pluginPaths == ["/etc/td/plugins", "/etc/td/../lib/x.so", "/abs/dir"])
  }

  @Test func relativePluginPathsStayRelativeWithoutABaseDirectory() throws {
    let config = try decodedConfig(#"{"pluginPaths": ["plugins"]}"#, baseDirectory: "")
    #expect(config.pluginPaths == ["plugins"])
  }

  @Test func fileIsReadAndItsDirectoryIsTheBase() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/transitiond.json"
    try Data(#"{"pluginPaths": ["p"], "logLevel": "warn"}"#.utf8).write(
      to: URL(fileURLWithPath: path))
    let config = try DaemonConfig(contentsOf: path)
    #expect(config.pluginPaths == [directory + "/p"])
    #expect(config.logLevel == .warn)
  }

  @Test func fileErrorsNameTheFile() throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/bad.json"
    try Data(#"{"limits": {"maxClient": 1}}"#.utf8).write(to: URL(fileURLWithPath: path))
    #expect(throws: ConfigError(file: path, "limits.maxClient is not a known field")) {
      try DaemonConfig(contentsOf: path)
    }
    #expect(
      ConfigError(file: path, "limits.maxClient is not a known field").description
        == "config \(path): limits.maxClient is not a known field")

    let invalid = directory + "/invalid.json"
    try Data("{".utf8).write(to: URL(fileURLWithPath: invalid))
    do {
      _ = try DaemonConfig(contentsOf: invalid)
      Issue.record("invalid JSON was accepted")
    } catch {
      #expect(error.file == invalid)
      #expect(error.message.hasPrefix("is not valid JSON"))
    }

    let missing = directory + "/missing.json"
    #expect(throws: ConfigError(file: missing, "cannot be read")) {
      try DaemonConfig(contentsOf: missing)
    }
  }
}
