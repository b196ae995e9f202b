import Foundation
import Glibc

/// Debian's `chromium` started headless with `--remote-debugging-pipe`, in a fresh profile
/// directory of its own, and the ``DevToolsPipe`` that drives it.
///
/// ``close()`` asks the browser to quit, waits for it (killing it if it lingers) and removes the
/// profile; deinit does the same.
public final class HeadlessBrowser {
  /// The protocol client, connected to the browser.
  public let devTools: DevToolsPipe
  private let process: ChildProcess
  private let profile: String
  private var closed = false

  /// The browser's command-line options besides the pipe and the profile: headless, no
  /// sandbox (it only ever loads the viewer page from disk, and root needs it), no GPU (so
  /// that every run rasterises the same way, in software), `file://` pages may read files (the
  /// recording, the images), and no scroll bars, extensions, first-run pages or sound. The
  /// second line keeps a busy machine from changing the pixels: the compositor draws only once
  /// every stage (raster included) is done, never a low-resolution or checkered tile, a partly
  /// rastered one or a picture still decoding; colours are plain sRGB.
  public static let options = [
    "--run-all-compositor-stages-before-draw", "--disable-low-res-tiling",
    "--disable-partial-raster", "--disable-checker-imaging", "--force-color-profile=srgb",
    "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
    "--hide-scrollbars", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
    "--mute-audio", "--disable-background-networking", "--disable-sync",
    "--disable-component-update", "--disable-features=Translate,MediaRouter",
  ]

  /// Starts `executable` with a window of `width` × `height` pixels.
  ///
  /// - Parameter log: a descriptor for the browser's standard error, or nil to discard it.
  /// - Throws: ``DevToolsPipe/Failure`` when the profile or the pipes cannot be made,
  ///   the browser cannot start, or it does not answer `Browser.getVersion`.
  public init(executable: String, width: Int, height: Int, log: Int32? = nil) throws(DevToolsPipe
    .Failure)
  {
    var template = Array("/tmp/transitionctl-browser-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else {
      throw DevToolsPipe.Failure(description: "mkdtemp: \(String(cString: strerror(errno)))")
    }
    profile = String(cString: created)
    let toBrowser: (read: Int32, write: Int32)
    let fromBrowser: (read: Int32, write: Int32)
    do {
      toBrowser = try ChildProcess.pipe()
      fromBrowser = try ChildProcess.pipe()
    } catch {
      Self.remove(profile)
      throw DevToolsPipe.Failure(description: error.description)
    }
    var descriptors: [Int32: Int32] = [3: toBrowser.read, 4: fromBrowser.write]
    if let log { descriptors[2] = log }
    var environment: [String: String] = ["HOME": profile]
    for name in ["PATH", "LANG", "TZ", "FONTCONFIG_PATH", "FONTCONFIG_FILE"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    let arguments =
      Self.options + [
        "--remote-debugging-pipe", "--user-data-dir=\(profile)/profile",
        "--window-size=\(width),\(height)", "about:blank",
      ]
    do {
      process = try ChildProcess(
        executable: executable, arguments: arguments, environment: environment,
        descriptors: descriptors)
    } catch {
      for descriptor in [toBrowser.read, toBrowser.write, fromBrowser.read, fromBrowser.write] {
        Glibc.close(descriptor)
      }
      Self.remove(profile)
      throw DevToolsPipe.Failure(description: error.description)
    }
    Glibc.close(toBrowser.read)
    Glibc.close(fromBrowser.write)
    devTools = DevToolsPipe(commands: toBrowser.write, replies: fromBrowser.read)
    do {
      try devTools.call("Browser.getVersion")
    } catch {
      close()
      throw DevToolsPipe.Failure(description: "\(executable) did not start: \(error)")
    }
  }

  deinit { close() }

  /// Quits the browser (`Browser.close`, then SIGKILL if it has not exited within 10 s) and
  /// removes its profile directory.
  public func close() {
    guard !closed else { return }
    closed = true
    _ = try? devTools.call("Browser.close")
    var polls = 0
    while process.exitedStatus() == nil && polls < 1000 {
      usleep(10_000)
      polls += 1
    }
    process.send(SIGKILL)
    process.wait()
    Self.remove(profile)
  }

  private static func remove(_ directory: String) {
    try? FileManager.default.removeItem(atPath: directory)
  }
}
