import Foundation
import Glibc
import Testing
import TransitionClient

@testable import IntegrationSupport

/// What the daemon says about a plugin that fails or was rebuilt: the failure goes to the
/// client (as the fallback's reason) and to the log, naming the animator once; a reload
/// restarts a rebuilt library's plugin host, and only its.
@Suite struct DaemonPluginReportTests {
  /// A C plugin with animators `grumpy` (ERROR with a message), `odd` (an unknown status) and
  /// `mute` (OK without bytes), all serving push, built as `libReport.so` in a directory the
  /// daemon trusts. `version` goes into the descriptor, so two builds differ.
  static func buildPlugin(in directory: String, version: String = "1.0.0") throws {
    let source = directory + "/report.c"
    try """
    #include <stdlib.h>
    #include <string.h>
    #include "transitiond_plugin.h"
    static transitiond_status grumpy(void *data, const uint8_t *context, size_t n,
                                     uint8_t **out, size_t *length) {
      (void)data; (void)context; (void)n;
      const char *message = "no screen to show";
      *out = malloc(strlen(message));
      memcpy(*out, message, strlen(message));
      *length = strlen(message);
      return TRANSITIOND_STATUS_ERROR;
    }
    static transitiond_status odd(void *data, const uint8_t *context, size_t n,
                                  uint8_t **out, size_t *length) {
      (void)data; (void)context; (void)n; (void)out; (void)length;
      return 9;
    }
    static transitiond_status mute(void *data, const uint8_t *context, size_t n,
                                   uint8_t **out, size_t *length) {
      (void)data; (void)context; (void)n; (void)out; (void)length;
      return TRANSITIOND_STATUS_OK;
    }
    static void release(void *data, uint8_t *bytes, size_t length) {
      (void)data; (void)length; free(bytes);
    }
    #define ANIMATOR(f) static const transitiond_animator f##_animator = { \\
      sizeof(transitiond_animator), TRANSITIOND_OPERATION_PUSH, #f, 0.3, f, release, NULL};
    ANIMATOR(grumpy) ANIMATOR(odd) ANIMATOR(mute)
    static const transitiond_animator *const animators[] = {
      &grumpy_animator, &odd_animator, &mute_animator};
    static const transitiond_plugin plugin = {
      TRANSITIOND_PLUGIN_ABI_VERSION, sizeof(transitiond_plugin), "report", "\(version)",
      animators, 3};
    TRANSITIOND_PLUGIN_EXPORT const transitiond_plugin *transitiond_plugin_entry(void) {
      return &plugin;
    }
    """.write(toFile: source, atomically: true, encoding: .utf8)
    // Built aside and renamed into place, as a linker or an install does: a new inode.
    let built = directory + "/libReport.so.new"
    try DaemonHarness.compilePlugin(source: source, to: built)
    guard rename(built, directory + "/libReport.so") == 0 else {
      throw DaemonHarnessError("rename failed: errno \(errno)")
    }
  }

  static func pluginDirectory() throws -> String {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    chmod(directory, 0o755)
    try buildPlugin(in: directory)
    return directory
  }

  @Test(arguments: [
    ("grumpy", "animator grumpy failed: no screen to show"),
    ("odd", "animator odd failed: returned unknown status 9"),
    ("mute", "animator mute failed: reported success but returned no timeline"),
  ])
  func aFailingAnimatorIsReportedToTheClientAndLoggedNamedOnce(
    _ animator: String, _ message: String
  ) throws {
    let plugins = try Self.pluginDirectory()
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    let daemon = try DaemonProcess(arguments: ["--plugin-path", plugins])
    let client = try daemon.client()
    // The built-in default-slide serves the begin instead; the reply says why.
    let reply = try client.rawReply([
      "op": "begin", "animator": .string(animator), "context": .object(DaemonScenes.plainPush()),
    ])
    #expect(reply.ok, "\(reply.line)")
    #expect(reply.fields["fallbackReason"]?.stringValue == "failed", "\(reply.line)")
    #expect(reply.fields["fallbackMessage"]?.stringValue == message, "\(reply.line)")
    #expect(DaemonHarness.waitUntil { daemon.log.contains(message) }, "\(daemon.log)")
    let line = daemon.log.split(separator: "\n").first { $0.contains(message) } ?? ""
    #expect(line.components(separatedBy: "animator \(animator)").count == 2, "\(line)")
  }

  @Test func reloadRestartsOnlyTheHostOfALibraryRebuiltOnDisk() throws {
    let plugins = try Self.pluginDirectory()
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    let daemon = try DaemonProcess(arguments: ["--plugin-path", plugins])
    let client = try daemon.client()
    let reportHost = try DaemonPluginIsolationTests.hostPID(client, serving: "libReport.so")
    let crossfadeHost = try DaemonPluginIsolationTests.hostPID(client, serving: "libCrossfade.so")
    #expect(reportHost != nil && crossfadeHost != nil)
    let unchanged = try client.rawReply(["op": "reload"])
    #expect(unchanged.ok)
    #expect(!daemon.log.contains("changed on disk"), "\(daemon.log)")
    #expect(try DaemonPluginIsolationTests.hostPID(client, serving: "libReport.so") == reportHost)

    try Self.buildPlugin(in: plugins, version: "1.0.1")
    let reply = try client.rawReply(["op": "reload"])
    #expect(reply.ok, "\(reply.line)")
    // The reply comes after the new host's scan: the rebuilt copy serves, in a new process.
    let expected = "libReport.so changed on disk since it was loaded; its plugin host restarts"
    #expect(DaemonHarness.waitUntil { daemon.log.contains(expected) }, "\(daemon.log)")
    let animators = try client.animators().animators
    #expect(animators.first { $0.name == "grumpy" }?.version == "1.0.1")
    let restarted = try DaemonPluginIsolationTests.hostPID(client, serving: "libReport.so")
    #expect(restarted != nil && restarted != reportHost)
    #expect(
      try DaemonPluginIsolationTests.hostPID(client, serving: "libCrossfade.so") == crossfadeHost)
  }

  /// `reload` counts the animators the rescan found: a plugin added since start-up is in the
  /// reply's count, not only in the next `animators`.
  @Test func reloadRepliesWithTheRescansCount() throws {
    let plugins = try Self.pluginDirectory()
    defer { try? FileManager.default.removeItem(atPath: plugins) }
    let daemon = try DaemonProcess(arguments: ["--plugin-path", plugins])
    let client = try daemon.client()
    let before = try client.animators().animators.count
    let faulty = try FaultyPlugin.segfault.build()
    defer { try? FileManager.default.removeItem(atPath: faulty) }
    try FileManager.default.copyItem(
      atPath: faulty + "/libFaulty.so", toPath: plugins + "/libFaulty.so")
    let reply = try client.rawReply(["op": "reload"])
    #expect(reply.fields["animators"]?.numberValue == Double(before + 1), "\(reply.line)")
    #expect(try client.animators().animators.count == before + 1)
  }
}
