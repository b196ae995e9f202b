import Foundation

/// The viewer page: a static web page (no build step, no outside files) that draws
/// transitiond frames in a browser. Its files live in `Sources/TransitionViewer/viewer/`;
/// `swift build` copies them into the products directory and `make install` into
/// `$(PREFIX)/share/transitiond/viewer/`.
///
/// This type only finds the files and names their media types; it serves nothing.
public enum ViewerPage {
  /// The page's file names; `index.html` is the page itself.
  public static let fileNames = [
    "index.html", "viewer.css", "viewer.js", "recording.js", "frame-renderer.js",
    "timeline-inspector.js", "transitiond.mjs", "display-clock.mjs", "display-pacer.js",
  ]

  /// The page's directory relative to an installation prefix.
  public static let installedPath = "share/transitiond/viewer"

  /// The name of the resource directory inside the target (and inside SwiftPM's resource
  /// bundle next to the built executables).
  public static let resourceDirectoryName = "viewer"

  /// The media type to serve `fileName` with, or nil for a name that is not one of the page's.
  public static func mediaType(of fileName: String) -> String? {
    guard fileNames.contains(fileName) else { return nil }
    switch (fileName as NSString).pathExtension {
    case "html": return "text/html; charset=utf-8"
    case "css": return "text/css; charset=utf-8"
    case "js", "mjs": return "text/javascript; charset=utf-8"
    default: return nil
    }
  }

  /// Where to look for the page, in order, for an executable in `executableDirectory`:
  /// the installed layout (`<prefix>/bin/transitiond` beside
  /// `<prefix>/share/transitiond/viewer/`), then SwiftPM's resource bundle next to the built
  /// executables (`.build/debug/transitiond_TransitionViewer.resources/viewer`).
  public static func candidateDirectories(executableDirectory: String) -> [String] {
    let prefix = (executableDirectory as NSString).deletingLastPathComponent
    return [
      (prefix as NSString).appendingPathComponent(installedPath),
      (executableDirectory as NSString).appendingPathComponent(
        "transitiond_TransitionViewer.resources/\(resourceDirectoryName)"),
    ]
  }

  /// The first candidate directory that holds `index.html`, or nil.
  public static func directory(executableDirectory: String) -> String? {
    candidateDirectories(executableDirectory: executableDirectory).first {
      FileManager.default.fileExists(atPath: ($0 as NSString).appendingPathComponent("index.html"))
    }
  }
}
