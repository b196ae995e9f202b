import Foundation
import Glibc
import Testing
import TransitionClient

@testable import IntegrationSupport

/// What a supervisor sees when a plugin calls `exit`: only the plugin host ends.
@Suite struct DaemonSupervisorTests {
  /// A C plugin whose `quitter` animator calls `exit(0)`, built in a directory the daemon
  /// trusts (inside the build directory, not under the world-writable /tmp).
  static func buildQuitterPlugin() throws -> String {
    let products = DaemonHarness.productsDirectory
    let directory =
      (products as NSString).deletingLastPathComponent
      + "/integration-test-plugins/\(UUID().uuidString)"
    try FileManager.default.createDirectory(
      atPath: directory, withIntermediateDirectories: true,
      attributes: [.posixPermissions: 0o755])
    chmod((directory as NSString).deletingLastPathComponent, 0o755)
    let source = directory + "/quitter.c"
    try """
    #include <stdlib.h>
    #include "transitiond_plugin.h"
    static transitiond_status make(void *data, const uint8_t *context, size_t n,
                                   uint8_t **out, size_t *length) {
      (void)data; (void)context; (void)n; (void)out; (void)length;
      exit(0);
    }
    static void release(void *data, uint8_t *bytes, size_t length) {
      (void)data; (void)length; free(bytes);
    }
    static const transitiond_animator quitter = {
      sizeof(transitiond_animator), TRANSITIOND_OPERATION_PUSH, "quitter", 0.3, make, release,
      NULL};
    static const transitiond_animator *const animators[] = {&quitter};
    static const transitiond_plugin plugin = {
      TRANSITIOND_PLUGIN_ABI_VERSION, sizeof(transitiond_plugin), "quitter", "1.0.0",
      animators, 1};
    TRANSITIOND_PLUGIN_EXPORT const transitiond_plugin *transitiond_plugin_entry(void) {
      return &plugin;
    }
    """.write(toFile: source, atomically: true, encoding: .utf8)
    let library = directory + "/libQuitter.so"
    try DaemonHarness.compilePlugin(source: source, to: library)
    return directory
  }

  @Test func aPluginThatCallsExitEndsOnlyThePluginHost() throws {
    let plugins = try Self.buildQuitterPlugin()
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    let daemon = try DaemonProcess(arguments: ["--plugin-path", plugins])
    let client = try daemon.client()
    #expect(try client.animators().animators.contains { $0.name == "quitter" })
    let reply = try client.rawReply([
      "op": "begin", "animator": "quitter", "context": .object(DaemonScenes.plainPush()),
    ])
    #expect(reply.fields["fallbackReason"]?.stringValue == "crashed", "\(reply.line)")
    #expect(daemon.process.isRunning)
    #expect(
      DaemonHarness.waitUntil { daemon.log.contains("exited with status 0") }, "\(daemon.log)")
    #expect(!daemon.log.contains("exit() was called while serving"))
  }

  @Test func theShippedUnitRestartsAlwaysAndHasAWatchdog() throws {
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { repository.deleteLastPathComponent() }
    let unit = try String(
      contentsOf: repository.appendingPathComponent("config/transitiond.service"), encoding: .utf8)
    let lines = unit.split(separator: "\n").map(String.init)
    #expect(lines.contains("Restart=always"))
    #expect(lines.contains { $0.hasPrefix("WatchdogSec=") })
    #expect(lines.contains("Type=notify"))
  }
}
