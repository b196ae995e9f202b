import Foundation
import Testing

@testable import IntegrationSupport

/// docs/examples/c/render-session.c, a whole renderer in C: built with pkg-config from a prefix
/// that `make install-clib install-gles` filled, run against the real daemon on a session that
/// waits for it (interactive, read on the virtual clock), and its PNGs compared with what
/// `transitionctl render --renderer chromium` draws of the same session's recording, within the
/// parity limits of docs/renderer-gles.md.
@Suite(
  "the C renderer example", .serialized,
  .enabled(if: RenderTools.missingReason == nil, "\(RenderTools.missingReason ?? "")"))
struct CRendererExampleTests {
  /// Builds the example against an installed prefix; returns its path.
  static func buildExample(in directory: TransitionctlTemporaryDirectory) throws -> String {
    let prefix = directory.file("prefix")
    let install = try DaemonHarness.runProgram(
      "/usr/bin/env",
      [
        "make", "-s", "-C", TransitionctlProducts.repository.path, "install-clib",
        "install-gles", "PREFIX=\(prefix)", "CLIB_DIR=\(directory.file("build"))",
      ])
    try #require(install.status == 0, "make install-clib install-gles: \(install.stderr)")
    for path in [
      "include/transitiond_gles.h", "lib/libtransitiond-gles.so.1", "lib/libtransitiond-gles.a",
      "lib/pkgconfig/transitiond-gles.pc",
    ] {
      #expect(FileManager.default.fileExists(atPath: "\(prefix)/\(path)"), "\(path)")
    }
    let environment = ["PKG_CONFIG_PATH": "\(prefix)/lib/pkgconfig", "PATH": "/usr/bin:/bin"]
    let flags = try DaemonHarness.runProgram(
      "/usr/bin/env", ["pkg-config", "--cflags", "--libs", "transitiond-gles"],
      environment: environment)
    try #require(flags.status == 0, "pkg-config: \(flags.stderr)")
    let source = TransitionctlProducts.repository.appendingPathComponent(
      "docs/examples/c/render-session.c")
    let program = directory.file("render-session")
    let arguments =
      ["-std=c11", "-Wall", "-Wextra", "-pedantic", "-Werror", source.path, "-o", program]
      + flags.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
      + ["-Wl,-rpath,\(prefix)/lib"]
    try CCompiler.compile(arguments)
    return program
  }

  /// At scale 1, where docs/renderer-gles.md's parity limits were measured.
  @Test("render-session draws the album flip as Chromium does, frame for frame")
  func matchesChromium() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let program = try Self.buildExample(in: directory)
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let scene = try TransitionctlScene(named: "album-flip-push")
    // Interactive: the session waits while both readers subscribe; each virtual stream then
    // holds the whole timeline from t = 0.
    _ = try client.begin(
      context: scene.context, animator: scene.animator, interactive: true, session: "drawn")
    let images = TransitionctlProducts.scenes.appendingPathComponent("images").path
    let recording = directory.file("drawn.ndjson")
    let watch = try TransitionctlRun.run(
      ["watch", "drawn", "--virtual", "--fps", "10", "--out", recording],
      socket: daemon.socketPath)
    #expect(watch.status == 0, "watch: \(watch.stderr)")
    let drawn = directory.file("c") + "/"
    let run = try DaemonHarness.runProgram(
      program,
      [
        "--socket", daemon.socketPath, "--fps", "10", "--images", images,
        "drawn", drawn,
      ])
    #expect(run.status == 0, "render-session: \(run.stderr)")
    let reference = directory.file("chromium") + "/"
    let render = try TransitionctlRun.run(
      [
        "render", recording, "--out", reference, "--renderer", "chromium", "--images", images,
        "-q",
      ], socket: nil, bound: 300)
    #expect(render.status == 0, "render: \(render.stderr)")

    let files = try FileManager.default.contentsOfDirectory(atPath: drawn).sorted()
    let expected = try FileManager.default.contentsOfDirectory(atPath: reference).sorted()
    // Every frame of the timeline at 10 fps, t = 0 to the end: the same names on both sides.
    #expect(files.count > 5)
    #expect(files == expected)
    var shares: [String] = []
    for name in files where expected.contains(name) {
      let mine = try PNGImage(contentsOfFile: drawn + name)
      let theirs = try PNGImage(contentsOfFile: reference + name)
      #expect(mine.width == 390 && mine.height == 844)
      #expect(mine.width == theirs.width && mine.height == theirs.height)
      guard mine.pixels.count == theirs.pixels.count else { continue }
      let share = NativeRendererParityTests.differingShare(mine.pixels, theirs.pixels)
      shares.append(String(format: "%.4f", share))
      #expect(share <= NativeRendererParityTests.contentLimit, "\(name): \(share)")
    }
    print("render-session against chromium, share of pixels off by > 16/255: \(shares)")
  }
}
