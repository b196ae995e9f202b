import Foundation
import Glibc

/// A C plugin built by the tests with the system compiler against `transitiond_plugin.h`,
/// whose one animator, `faulty` (every operation), misbehaves in one way.
enum FaultyPlugin: String, CaseIterable {
  case segfault, abort, exitZero, infiniteLoop, sleepPastDeadline, oversizedTimeline
  case crashInEntry, crashInConstructor, blocksSignals

  /// The animator's name.
  static let animatorName = "faulty"

  /// The C statements of `make_timeline`.
  private var makeTimelineBody: String {
    switch self {
    case .segfault: return "*(volatile int *)0 = 1; return TRANSITIOND_STATUS_DECLINE;"
    case .abort: return "abort();"
    case .exitZero: return "exit(0);"
    case .infiniteLoop: return "for (volatile unsigned long i = 0;; i++) {}"
    case .sleepPastDeadline: return "sleep(30); return TRANSITIOND_STATUS_DECLINE;"
    case .oversizedTimeline:
      // 2 MiB of spaces, over the tests' limits.maxTimelineBytes of 1 MiB.
      return """
        size_t size = 2u << 20; *out = malloc(size); memset(*out, ' ', size); *length = size;
        return TRANSITIOND_STATUS_OK;
        """
    case .crashInEntry, .crashInConstructor, .blocksSignals:
      return "return TRANSITIOND_STATUS_DECLINE;"
    }
  }

  /// The C statements run by the entry symbol before it returns the descriptor.
  private var entryBody: String {
    switch self {
    case .crashInEntry: return "*(volatile int *)0 = 1;"
    case .blocksSignals:
      return """
        sigset_t all; sigfillset(&all); sigprocmask(SIG_BLOCK, &all, NULL);
        signal(SIGTERM, SIG_IGN); signal(SIGHUP, SIG_IGN); signal(SIGINT, SIG_IGN);
        """
    default: return ""
    }
  }

  var source: String {
    """
    #define _GNU_SOURCE
    #include <signal.h>
    #include <stdlib.h>
    #include <string.h>
    #include <unistd.h>
    #include "transitiond_plugin.h"

    static transitiond_status make(void *data, const uint8_t *context, size_t n,
                                   uint8_t **out, size_t *length) {
      (void)data; (void)context; (void)n; (void)out; (void)length;
      \(makeTimelineBody)
    }
    static void free_bytes(void *data, uint8_t *bytes, size_t length) {
      (void)data; (void)length; free(bytes);
    }
    static const transitiond_animator animator = {
      sizeof(transitiond_animator),
      TRANSITIOND_OPERATION_PUSH | TRANSITIOND_OPERATION_POP | TRANSITIOND_OPERATION_PRESENT |
        TRANSITIOND_OPERATION_DISMISS,
      "\(Self.animatorName)", 0.5, make, free_bytes, NULL};
    static const transitiond_animator *const animators[] = {&animator};
    static const transitiond_plugin plugin = {
      TRANSITIOND_PLUGIN_ABI_VERSION, sizeof(transitiond_plugin), "faulty", "0.0.1",
      animators, 1};
    \(self == .crashInConstructor ? "__attribute__((constructor)) static void crash(void) { *(volatile int *)0 = 1; }" : "")
    TRANSITIOND_PLUGIN_EXPORT const transitiond_plugin *transitiond_plugin_entry(void) {
      \(entryBody)
      return &plugin;
    }

    """
  }

  /// Builds `libFaulty.so` in a new directory (mode 0755, so that a plugin host running as
  /// `nobody` can read it) and returns the directory.
  func build() throws -> String {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    chmod(directory, 0o755)
    let sourcePath = directory + "/faulty.c"
    let library = directory + "/libFaulty.so"
    try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
    try DaemonHarness.compilePlugin(source: sourcePath, to: library)
    try FileManager.default.removeItem(atPath: sourcePath)
    return directory
  }
}
