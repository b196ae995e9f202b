import Foundation
import PluginLoader

/// Small C plugins compiled at test time with the system C compiler against
/// `transitiond_plugin.h`, to exercise the host with behaviour no real animator has.
struct CPluginFixture {
  /// What a fixture animator's `make_timeline` does.
  enum Behaviour {
    /// Returns OK with this text as the timeline.
    case timeline(String)
    /// Returns OK with the context bytes unchanged.
    case echo
    /// Returns OK with `{"entryCalls":E,"calls":C,"frees":F}`: how often the entry symbol and
    /// this function were called, and how many results the host freed before this call.
    case report
    /// Returns DECLINE.
    case decline
    /// Returns ERROR with this message.
    case error(String)
    /// Returns ERROR without a message.
    case errorWithoutMessage
    /// Returns OK without setting the output.
    case okWithoutBytes
    /// Returns a status the ABI does not define.
    case status(Int)
  }

  struct Animator {
    var name: String
    /// A C expression for the operations mask.
    var operations = "TRANSITIOND_OPERATION_PUSH | TRANSITIOND_OPERATION_POP"
    var defaultDuration = 0.5
    var behaviour = Behaviour.report
  }

  var pluginName = "fixture"
  var version = "1.2.3"
  /// A C expression for `abi_version`.
  var abiVersion = "TRANSITIOND_PLUGIN_ABI_VERSION"
  var animators: [Animator]
  /// Leave out the entry symbol: a shared library that is not a plugin.
  var exportsEntry = true
  /// Return NULL from the entry symbol.
  var entryReturnsNull = false

  /// The C source of this fixture.
  var source: String {
    var c = """
      #include <stdio.h>
      #include <stdlib.h>
      #include <string.h>
      #include "transitiond_plugin.h"

      static int entry_calls = 0, make_calls = 0, frees = 0;

      static transitiond_status give(const char *text, transitiond_status status,
                                     uint8_t **out, size_t *length) {
        size_t n = strlen(text);
        *out = malloc(n);
        memcpy(*out, text, n);
        *length = n;
        return status;
      }

      static void free_bytes(void *data, uint8_t *bytes, size_t length) {
        (void)data; (void)length;
        frees++;
        free(bytes);
      }

      """
    for (index, animator) in animators.enumerated() {
      c += """
        static transitiond_status make_\(index)(void *data, const uint8_t *context, size_t n,
                                               uint8_t **out, size_t *length) {
          (void)data; (void)context; (void)n;
          make_calls++;
          \(Self.body(animator.behaviour))
        }
        static const transitiond_animator animator_\(index) = {
          sizeof(transitiond_animator), \(animator.operations), \(Self.cString(animator.name)),
          \(animator.defaultDuration), make_\(index), free_bytes, NULL};

        """
    }
    let pointers = animators.indices.map { "&animator_\($0)" }.joined(separator: ", ")
    c += """
      static const transitiond_animator *const animators[] = {\(pointers.isEmpty ? "NULL" : pointers)};
      static const transitiond_plugin plugin = {
        \(abiVersion), sizeof(transitiond_plugin), \(Self.cString(pluginName)),
        \(Self.cString(version)), animators, \(animators.count)};

      """
    if exportsEntry {
      c += """
        TRANSITIOND_PLUGIN_EXPORT const transitiond_plugin *transitiond_plugin_entry(void) {
          entry_calls++;
          return \(entryReturnsNull ? "NULL" : "&plugin");
        }

        """
    } else {
      c += "int fixture_not_a_plugin(void) { return (int)sizeof plugin + entry_calls; }\n"
    }
    return c
  }

  private static func body(_ behaviour: Behaviour) -> String {
    switch behaviour {
    case .timeline(let text):
      return "return give(\(cString(text)), TRANSITIOND_STATUS_OK, out, length);"
    case .echo:
      return """
        *out = malloc(n > 0 ? n : 1); memcpy(*out, context, n); *length = n;
        return TRANSITIOND_STATUS_OK;
        """
    case .report:
      return """
        char text[128];
        snprintf(text, sizeof text, "{\\"entryCalls\\":%d,\\"calls\\":%d,\\"frees\\":%d}",
                 entry_calls, make_calls, frees);
        return give(text, TRANSITIOND_STATUS_OK, out, length);
        """
    case .decline:
      return "return TRANSITIOND_STATUS_DECLINE;"
    case .error(let message):
      return "return give(\(cString(message)), TRANSITIOND_STATUS_ERROR, out, length);"
    case .errorWithoutMessage:
      return "return TRANSITIOND_STATUS_ERROR;"
    case .okWithoutBytes:
      return "return TRANSITIOND_STATUS_OK;"
    case .status(let status):
      return "return \(status);"
    }
  }

  /// A C string literal for `text` (ASCII test strings; quotes and backslashes escaped).
  static func cString(_ text: String) -> String {
    "\""
      + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "\"", with: "\\\"")
      + "\""
  }

  /// Compiles the fixture into `directory/fileName` with mode 0755.
  /// - Returns: the library's path.
  @discardableResult
  func build(in directory: URL, fileName: String = "libFixture.so") throws -> String {
    let sourceFile = directory.appendingPathComponent(fileName + ".c")
    let library = directory.appendingPathComponent(fileName)
    try source.write(to: sourceFile, atomically: true, encoding: .utf8)
    try TestDirectory.run(
      "/usr/bin/env",
      [
        "cc", "-std=c11", "-Wall", "-shared", "-fPIC", "-I",
        TestDirectory.pluginHeaderDirectory, "-o", library.path, sourceFile.path,
      ])
    try FileManager.default.removeItem(at: sourceFile)
    try TestDirectory.setMode(0o755, library.path)
    return library.path
  }
}
