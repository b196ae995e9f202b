import Foundation
import Glibc
import Testing
import TransitionClient
import TransitionJSON
import TransitionWire

@testable import IntegrationSupport

/// The C client library (Sources/CTransitionClient, docs/client-c.md), built by the C compiler
/// alone as `make clib` builds it: its own test program against the real daemon, its whole
/// frames against TransitionClient's for the same recordings, its header in C and C++, and its
/// installation with pkg-config.
@Suite("C client library", .serialized)
struct CClientLibraryTests {
  static let sources = TransitionctlProducts.repository.appendingPathComponent(
    "Sources/CTransitionClient")
  static let tests = TransitionctlProducts.repository.appendingPathComponent("Tests/CClientTests")

  /// The library's C files.
  static func librarySources() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: sources.path)
      .filter { $0.hasSuffix(".c") }.sorted().map { sources.appendingPathComponent($0).path }
  }

  static func compile(_ arguments: [String], compiler: String = "cc") throws {
    try CCompiler.compile(arguments, compiler: compiler)
  }

  /// Builds the shared library into `directory` as `make clib` does; returns its path.
  static func buildLibrary(in directory: TransitionctlTemporaryDirectory) throws -> String {
    let library = directory.file("libtransitiond-client.so")
    try compile(
      [
        "-std=c11", "-Wall", "-Wextra", "-pedantic", "-O2", "-fPIC", "-fvisibility=hidden",
        "-shared", "-Wl,-soname,libtransitiond-client.so.1", "-I", sources.path + "/include",
        "-o", library,
      ] + librarySources() + ["-lm", "-pthread"])
    symlink("libtransitiond-client.so", directory.file("libtransitiond-client.so.1"))
    return library
  }

  /// Builds a test program of Tests/CClientTests against the shared library in `directory`.
  static func buildProgram(_ name: String, in directory: TransitionctlTemporaryDirectory) throws
    -> String
  {
    let program = directory.file(name)
    try compile([
      "-std=c11", "-Wall", "-Wextra", "-pedantic", "-O1", "-I", sources.path + "/include", "-I",
      sources.path, "-o", program, tests.appendingPathComponent("\(name).c").path,
      sources.appendingPathComponent("json_scan.c").path, "-L", directory.url.path,
      "-ltransitiond-client", "-Wl,-rpath," + directory.url.path, "-lm",
    ])
    return program
  }

  @Test("the C test program passes against a real daemon, and its library needs no Swift")
  func clientTestProgram() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let library = try Self.buildLibrary(in: directory)
    let program = try Self.buildProgram("client_test", in: directory)
    let result = try DaemonHarness.runProgram(
      program,
      [
        TransitionctlProducts.transitiond.path, TransitionctlProducts.directory.path,
        TransitionctlProducts.scenes.path, library,
      ])
    #expect(result.status == 0, "client_test: \(result.stdout)\(result.stderr)")
    #expect(result.stdout.contains(", 0 failed"), "\(result.stdout)")
  }

  /// A frame as Tests/CClientTests/frame_text.h writes it: doubles as the hex of their bits.
  static func frameText(_ frame: FrameEvent) -> String {
    func bits(_ value: Double) -> String {
      let hex = String(value.bitPattern, radix: 16)
      return " " + String(repeating: "0", count: 16 - hex.count) + hex
    }
    func numbers(_ layer: [String: JSONValue], _ name: String, _ fallback: [Double]) -> String {
      let values = layer[name]?.arrayValue?.compactMap(\.numberValue) ?? fallback
      return values.map(bits).joined()
    }
    var text =
      "frame \(frame.session) \(frame.seq)\(bits(frame.t))\(bits(frame.progress)) \(frame.layers.count)\n"
    let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    for layer in frame.layers {
      text += "layer \(layer["id"]?.stringValue ?? "?")"
      text += numbers(layer, "frame", [0, 0, 0, 0]) + numbers(layer, "anchor", [0.5, 0.5])
      text += numbers(layer, "transform", identity)
      text += bits(layer["alpha"]?.numberValue ?? 1)
      text += layer["hidden"]?.boolValue == true ? " 1" : " 0"
      text += bits(layer["z"]?.numberValue ?? 0)
      text += " " + (layer["background"]?.stringValue ?? "-")
      text += " " + (layer["content"].map { $0.serialized } ?? "-") + "\n"
      guard let quadW = layer["quadW"] else { continue }
      func numbersOrDash(_ value: JSONValue?) -> String {
        guard let values = value?.arrayValue else { return " -" }
        return values.compactMap(\.numberValue).map(bits).joined()
      }
      text += "geometry" + numbersOrDash(layer["quad"]) + numbersOrDash(quadW)
      text += numbersOrDash(layer["affine"]) + "\n"
    }
    return text
  }

  @Test(
    "the C library's whole frames of the projected-geometry conformance vectors equal TransitionClient's",
    arguments: ["quad-album-flip-push", "quad-behind-eye"])
  func geometryFramesAgreeWithTransitionClient(vector: String) throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    _ = try Self.buildLibrary(in: directory)
    let dump = try Self.buildProgram("frame_dump", in: directory)
    let conformance = TransitionctlProducts.repository.appendingPathComponent("Tests/Conformance")
    for encoding in ["full", "delta"] {
      let recording = conformance.appendingPathComponent("\(vector).\(encoding).ndjson").path
      let fromC = try DaemonHarness.runProgram(dump, [recording])
      try #require(fromC.status == 0, "frame_dump: \(fromC.stderr)")
      var applier = FrameDeltaApplier()
      var fromSwift = ""
      let text = try String(contentsOfFile: recording, encoding: .utf8)
      for line in text.split(separator: "\n") {
        guard case .object(let fields) = try JSONValue(parsing: Array(line.utf8)) else { continue }
        if case .frame(let frame) = try Event(fields: fields, line: String(line), applier: &applier)
        {
          fromSwift += Self.frameText(frame)
        }
      }
      #expect(fromSwift.contains("geometry"))
      #expect(fromC.stdout == fromSwift, "\(vector) \(encoding): the C and Swift frames differ")
    }
  }

  @Test(
    "the C library's whole frames equal TransitionClient's for the same recordings",
    arguments: [
      "album-flip-push", "zoom-present-matched-present", "default-slide-push",
      "material-container-transform-present",
    ])
  func framesAgreeWithTransitionClient(scene: String) throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    _ = try Self.buildLibrary(in: directory)
    let dump = try Self.buildProgram("frame_dump", in: directory)
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let scenePath = try TransitionctlScene(named: scene).url.path
    for extra in [["--delta", "--key-every", "7"], []] {
      let recording = directory.file("recording.ndjson")
      let play = try TransitionctlRun.run(
        ["play", scenePath, "--virtual", "--fps", "60", "--out", recording] + extra,
        socket: daemon.socketPath)
      try #require(play.status == 0, "play: \(play.stderr)")
      let fromC = try DaemonHarness.runProgram(dump, [recording])
      try #require(fromC.status == 0, "frame_dump: \(fromC.stderr)")
      var applier = FrameDeltaApplier()
      var fromSwift = ""
      var frames = 0
      let text = try String(contentsOfFile: recording, encoding: .utf8)
      for line in text.split(separator: "\n") {
        guard case .object(let fields) = try JSONValue(parsing: Array(line.utf8)) else { continue }
        if case .frame(let frame) = try Event(fields: fields, line: String(line), applier: &applier)
        {
          fromSwift += Self.frameText(frame)
          frames += 1
        }
      }
      #expect(frames > 10)
      #expect(fromC.stdout == fromSwift, "\(scene) \(extra): the C and Swift frames differ")
    }
  }

  @Test("the header compiles cleanly as C11 and as C++17")
  func headerCompiles() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let source =
      "#include \"transitiond_client.h\"\nint main(void) { return td_client_version() > 0 ? 0 : 1; }\n"
    for (name, compiler, standard) in [("c.c", "cc", "-std=c11"), ("cpp.cpp", "c++", "-std=c++17")]
    {
      try source.write(toFile: directory.file(name), atomically: true, encoding: .utf8)
      try Self.compile(
        [
          standard, "-Wall", "-Wextra", "-pedantic", "-Werror", "-I",
          Self.sources.path + "/include",
          "-c", directory.file(name), "-o", directory.file(name + ".o"),
        ], compiler: compiler)
    }
  }

  @Test("make install-clib installs what pkg-config needs to build the examples")
  func installedLibraryBuildsTheExamples() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let prefix = directory.file("prefix")
    let repository = TransitionctlProducts.repository.path
    let install = try DaemonHarness.runProgram(
      "/usr/bin/env",
      [
        "make", "-s", "-C", repository, "install-clib", "PREFIX=\(prefix)",
        "CLIB_DIR=\(directory.file("build"))",
      ])
    try #require(install.status == 0, "make install-clib: \(install.stderr)")
    for path in [
      "include/transitiond_client.h", "lib/libtransitiond-client.a",
      "lib/libtransitiond-client.so.1", "lib/pkgconfig/transitiond-client.pc",
    ] {
      #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(path)"), "\(path)")
    }
    let environment = ["PKG_CONFIG_PATH": "\(prefix)/lib/pkgconfig", "PATH": "/usr/bin:/bin"]
    let flags = try DaemonHarness.runProgram(
      "/usr/bin/env", ["pkg-config", "--cflags", "--libs", "transitiond-client"],
      environment: environment)
    try #require(flags.status == 0, "pkg-config: \(flags.stderr)")
    let examples = TransitionctlProducts.repository.appendingPathComponent("docs/examples/c")
    for example in ["replay", "watch"] {
      let arguments =
        [
          "-std=c11", "-Wall", "-Wextra", "-pedantic",
          examples.appendingPathComponent(
            "\(example).c"
          ).path, "-o", directory.file(example),
        ]
        + flags.stdout.split(separator: " ").map {
          String($0).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        .filter { !$0.isEmpty } + ["-Wl,-rpath,\(prefix)/lib"]
      try Self.compile(arguments)
    }
    // The replay example decodes a recording with the installed library alone.
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let recording = directory.file("flip.ndjson")
    let play = try TransitionctlRun.run(
      [
        "play", try TransitionctlScene(named: "album-flip-push").url.path, "--virtual", "--fps",
        "10", "--delta", "--out", recording,
      ], socket: daemon.socketPath)
    try #require(play.status == 0, "play: \(play.stderr)")
    let replay = try DaemonHarness.runProgram(directory.file("replay"), [recording])
    #expect(replay.status == 0, "replay: \(replay.stderr)")
    #expect(replay.stdout.split(separator: "\n").count == 11, "\(replay.stdout)")
  }
}
