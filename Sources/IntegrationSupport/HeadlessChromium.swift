import Foundation

/// Debian's `chromium`, run headless on the viewer page: one process per page, each with a
/// fresh profile directory so that runs never share state.
enum HeadlessChromium {
  /// The browser: `$CHROMIUM` if set, else the first of `/usr/bin/chromium`,
  /// `/usr/bin/chromium-browser` that exists; nil when none does.
  static let executable: String? = {
    let candidates =
      [ProcessInfo.processInfo.environment["CHROMIUM"]].compactMap { $0 }
      + ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
  }()

  /// Why the browser tests are skipped, or nil when they can run.
  static var missingReason: String? {
    executable == nil
      ? "chromium is not installed (make setup installs Debian's chromium); browser tests skipped"
      : nil
  }

  /// The options every run takes: headless, no sandbox (tests run as root), no GPU, file://
  /// pages may read other files (the recordings), and virtual time, so that the page's
  /// loading finishes before the dump or screenshot however slow the machine is.
  static let commonArguments = [
    "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
    "--hide-scrollbars", "--force-device-scale-factor=1", "--virtual-time-budget=10000",
    "--no-first-run", "--disable-extensions", "--mute-audio",
  ]

  /// The page's DOM after it loaded (`--dump-dom`).
  static func dumpDOM(_ url: URL) throws -> String {
    try run(["--dump-dom", url.absoluteString]).stdout
  }

  /// A screenshot of the page at `width` × `height` CSS pixels, decoded.
  static func screenshot(_ url: URL, width: Int, height: Int) throws -> PNGImage {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/shot.png"
    try screenshot(url, width: width, height: height, to: path)
    return try PNGImage(contentsOfFile: path)
  }

  /// Writes a screenshot of the page to `path`.
  static func screenshot(_ url: URL, width: Int, height: Int, to path: String) throws {
    let result = try run([
      "--window-size=\(width),\(height)", "--screenshot=\(path)", url.absoluteString,
    ])
    guard FileManager.default.fileExists(atPath: path) else {
      throw DaemonHarnessError("chromium wrote no screenshot: \(result.stderr.suffix(2000))")
    }
  }

  private static func run(_ arguments: [String]) throws -> (stdout: String, stderr: String) {
    guard let executable else { throw DaemonHarnessError(missingReason ?? "no chromium") }
    let profile = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: profile) }
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = profile
    let result = try DaemonHarness.runProgram(
      executable, commonArguments + ["--user-data-dir=\(profile)/profile"] + arguments,
      environment: environment)
    guard result.status == 0 else {
      throw DaemonHarnessError(
        "chromium exited with status \(result.status): \(result.stderr.suffix(2000))")
    }
    return (result.stdout, result.stderr)
  }
}
