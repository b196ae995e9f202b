import Glibc
import Testing
import TransitionServer

@testable import DaemonSupport

/// What the daemon derives from its config for the plugin host: deadlines and back-off in
/// seconds, the sandbox, the host's environment, and the plugin user (looked up as root only).
@Suite struct PluginHostSettingsTests {
  @Test func theLimitsBecomeTheHostsSettingsInSeconds() throws {
    var config = DaemonConfig()
    config.limits.pluginCallTimeoutMs = 250
    config.limits.pluginLoadTimeoutMs = 4_000
    config.limits.pluginRestartBackoffMs = 300
    config.limits.pluginRestartBackoffMaxMs = 100
    config.limits.pluginQuarantineStrikes = 7
    config.limits.maxTimelineBytes = 2_048
    config.limits.pluginMemoryBytes = 128 << 20
    config.limits.pluginCPUSeconds = 9
    config.pluginPaths = ["/opt/plugins"]
    config.animatorPaths = ["/opt/animators"]
    config.allowInsecurePlugins = true
    let settings = try PluginHostSettings(config: config, executable: "/bin/td", file: nil)
    #expect(settings.executable == "/bin/td")
    #expect(settings.supervision.callTimeout == 0.25)
    #expect(settings.supervision.loadTimeout == 4)
    #expect(settings.supervision.initialBackoff == 0.3)
    // A maximum below the initial back-off is the initial back-off.
    #expect(settings.supervision.maximumBackoff == 0.3)
    #expect(settings.supervision.quarantineStrikes == 7)
    #expect(settings.supervision.maxTimelineBytes == 2_048)
    #expect(settings.supervision.registry.searchPath.entries.first == "/opt/plugins")
    #expect(settings.supervision.registry.animatorPaths == ["/opt/animators"])
    #expect(settings.supervision.registry.allowInsecurePlugins)
    #expect(settings.supervision.registry.trustedUID == geteuid())
    let sandbox = settings.sandbox(parent: 42)
    #expect(sandbox.parentPID == 42)
    #expect(sandbox.memoryBytes == 128 << 20)
    #expect(sandbox.cpuSeconds == 9)
    // The plugin user is looked up only by a daemon running as root.
    #expect((settings.user == nil) == (geteuid() != 0))
  }

  @Test func relativePathsAreTakenFromTheWorkingDirectory() throws {
    var config = DaemonConfig()
    config.animatorPaths = ["animators"]
    let settings = try PluginHostSettings(config: config, executable: "/bin/td", file: nil)
    let cwd = try #require(getcwd(nil, 0))
    defer { free(cwd) }
    #expect(settings.supervision.registry.animatorPaths == [String(cString: cwd) + "/animators"])
  }

  @Test func theHostDoesNotInheritWhatOnlyTheDaemonMayUse() {
    let keys = ["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID", "WATCHDOG_USEC"]
    for key in keys { setenv(key, "1", 1) }
    defer { for key in keys { unsetenv(key) } }
    let environment = PluginHostSettings.hostEnvironment()
    for key in keys { #expect(environment[key] == nil, "\(key)") }
    #expect(environment["PATH"] != nil)
  }

  @Test func thePluginUserIsLookedUpByName() throws {
    #expect(try PluginUser.resolve(named: "root", file: nil).uid == 0)
    #expect(
      throws: ConfigError(file: "/etc/t.json", #"pluginUser names no user: "no-such-user-x""#)
    ) {
      try PluginUser.resolve(named: "no-such-user-x", file: "/etc/t.json")
    }
  }
}
