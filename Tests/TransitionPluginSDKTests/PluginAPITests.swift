import CTransitionPlugin
import Foundation
import Testing
import TransitionPluginSDK

/// `PluginAPI.swift` says what transitiond_plugin.h says: the same version, symbol, statuses
/// and operation bits, and the same struct layout as the system C compiler gives the header
/// (a plugin written in C is built by it, not by Swift's importer).
@Suite struct PluginAPITests {
  /// The header as `cc -std=c11` reads it: each name printed with its value, one a line.
  private static func headerAsCompiled() throws -> [String: String] {
    let include = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/CTransitionPlugin/include").standardized.path
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("plugin-api-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let fields = [
      (
        "transitiond_plugin",
        [
          "abi_version", "struct_size", "name", "version", "animators",
          "animator_count",
        ]
      ),
      (
        "transitiond_animator",
        [
          "struct_size", "operations", "name", "default_duration",
          "make_timeline", "free_bytes", "animator_data",
        ]
      ),
    ]
    var lines = [
      #"printf("version %d\n", TRANSITIOND_PLUGIN_ABI_VERSION);"#,
      #"printf("symbol %s\n", TRANSITIOND_PLUGIN_ENTRY_SYMBOL);"#,
      #"printf("ok %d\ndecline %d\nerror %d\n", TRANSITIOND_STATUS_OK, TRANSITIOND_STATUS_DECLINE, TRANSITIOND_STATUS_ERROR);"#,
      #"printf("push %u\npop %u\npresent %u\ndismiss %u\n", TRANSITIOND_OPERATION_PUSH, TRANSITIOND_OPERATION_POP, TRANSITIOND_OPERATION_PRESENT, TRANSITIOND_OPERATION_DISMISS);"#,
    ]
    for (type, members) in fields {
      lines.append(#"printf("sizeof.\#(type) %zu\n", sizeof(\#(type)));"#)
      for member in members {
        lines.append(#"printf("\#(type).\#(member) %zu\n", offsetof(\#(type), \#(member)));"#)
      }
    }
    let source = directory.appendingPathComponent("layout.c")
    let program = directory.appendingPathComponent("layout")
    try
      (["#include <stdio.h>", "#include \"transitiond_plugin.h\"", "int main(void) {"] + lines
      + ["return 0;", "}"]).joined(separator: "\n").write(
        to: source, atomically: true, encoding: .utf8)
    let compile = try run(
      "/usr/bin/env",
      [
        "cc", "-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", "-I", include, "-o",
        program.path, source.path,
      ])
    #expect(compile.status == 0, "\(compile.output)")
    let layout = try run(program.path, [])
    #expect(layout.status == 0)
    var values: [String: String] = [:]
    for line in layout.output.split(separator: "\n") {
      let parts = line.split(separator: " ", maxSplits: 1)
      if parts.count == 2 { values[String(parts[0])] = String(parts[1]) }
    }
    return values
  }

  /// Runs `path` to its end; its status and its standard output and error together.
  private static func run(_ path: String, _ arguments: [String]) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  @Test func theSwiftFaceMatchesTheHeaderAsCompiled() throws {
    let header = try Self.headerAsCompiled()
    #expect(header["version"] == "\(PluginAPI.abiVersion)")
    #expect(header["symbol"] == PluginAPI.entrySymbol)
    #expect(header["ok"] == "\(PluginAPI.Status.ok.rawValue)")
    #expect(header["decline"] == "\(PluginAPI.Status.declined.rawValue)")
    #expect(header["error"] == "\(PluginAPI.Status.failed.rawValue)")
    for operation in TransitionOperation.allCases {
      #expect(header[operation.rawValue] == "\(PluginAPI.operationMask([operation]))")
    }
    #expect(header["sizeof.transitiond_plugin"] == "\(PluginAPI.pluginStructSize)")
    #expect(header["sizeof.transitiond_animator"] == "\(PluginAPI.animatorStructSize)")
    let plugin: [(String, PartialKeyPath<transitiond_plugin>)] = [
      ("abi_version", \.abi_version), ("struct_size", \.struct_size), ("name", \.name),
      ("version", \.version), ("animators", \.animators), ("animator_count", \.animator_count),
    ]
    for (name, path) in plugin {
      let offset = try #require(MemoryLayout<transitiond_plugin>.offset(of: path))
      #expect(header["transitiond_plugin.\(name)"] == "\(offset)", "\(name)")
    }
    let animator: [(String, PartialKeyPath<transitiond_animator>)] = [
      ("struct_size", \.struct_size), ("operations", \.operations), ("name", \.name),
      ("default_duration", \.default_duration), ("make_timeline", \.make_timeline),
      ("free_bytes", \.free_bytes), ("animator_data", \.animator_data),
    ]
    for (name, path) in animator {
      let offset = try #require(MemoryLayout<transitiond_animator>.offset(of: path))
      #expect(header["transitiond_animator.\(name)"] == "\(offset)", "\(name)")
    }
  }

  @Test func eachOutcomeHasItsStatus() {
    #expect(PluginAPI.Status(.timeline([1])) == .ok)
    #expect(PluginAPI.Status(.declined) == .declined)
    #expect(PluginAPI.Status(.failed("no")) == .failed)
    #expect(PluginAPI.Status.allCases.count == 3)
  }
}
