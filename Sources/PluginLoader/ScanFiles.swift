import Foundation
import PluginValues

/// The files one scan loads, found, judged and opened by the daemon (docs/plugins.md, "The
/// host protocol"): the plugin host is handed the open descriptors and never needs to reach a
/// path itself, and what it loads is the very file that was judged.
///
/// ``open(_:skipping:)`` walks the search path and the data animator directories as the
/// daemon's user, applies the ownership rule (`PermissionCheck`) to each file through its open
/// descriptor, and keeps every file in scan order: libraries first (search path order), then
/// data animators (directories in order, files by name).
public struct ScanFiles: Sendable {
  /// One file of a scan.
  public struct File: Equatable, Sendable {
    /// A library or a data animator file.
    public var kind: RegisteredAnimator.Kind
    /// The file's real path, as the daemon found it: what the host reports it under.
    public var path: String
    /// A data animator's name (its file's name without `.json`); a library's is empty.
    public var name: String
    /// The open, read-only descriptor; -1 for a file that is not handed over (``refusal``).
    public var descriptor: Int32
    /// Why a data animator file is listed but not handed over (the ownership rule, or it
    /// could not be opened); nil when it is handed over.
    public var refusal: String?
    /// The open file's `DEVICE:INODE:SIZE:SECONDS.NANOSECONDS` (``RegisteredAnimator/fileVersion``
    /// has the form); nil for a file not handed over. A library whose version differs from the
    /// one its plugin host loaded was rebuilt.
    public var version: String?

    public init(
      kind: RegisteredAnimator.Kind, path: String, name: String = "", descriptor: Int32,
      refusal: String? = nil, version: String? = nil
    ) {
      self.kind = kind
      self.path = path
      self.name = name
      self.descriptor = descriptor
      self.refusal = refusal
      self.version = version
    }
  }

  /// Which of a configuration's files a scan opens: a plugin host loads one library, or the
  /// data animator files (docs/plugins.md, "Isolation").
  public enum Selection: Hashable, Sendable {
    /// The search path's libraries, then the data animator files.
    case everything
    /// The search path's libraries only.
    case libraries
    /// The one library at this real path.
    case library(String)
    /// The data animator files only.
    case dataAnimators
  }

  /// The files in scan order.
  public var files: [File]
  /// What finding and judging them noticed (missing entries, refusals), in scan order.
  public var diagnostics: [PluginDiagnostic]

  public init(files: [File], diagnostics: [PluginDiagnostic] = []) {
    self.files = files
    self.diagnostics = diagnostics
  }

  /// The descriptors handed over, in file order.
  public var descriptors: [Int32] { files.map(\.descriptor).filter { $0 >= 0 } }

  /// Closes every descriptor (once the host has them, or when the scan is dropped).
  public func closeDescriptors() {
    for descriptor in descriptors { close(descriptor) }
  }

  /// Finds and opens the files of `configuration` that its ``PluginRegistry/Configuration/selection``
  /// names.
  /// - Parameters:
  ///   - skipping: real paths of libraries not to open at all (quarantined ones).
  /// - Returns: the files, each open close-on-exec; the caller closes them. The search path's
  ///   own findings (an entry missing, a library refused) come with ``Selection/everything`` and
  ///   ``Selection/libraries``; a ``Selection/library(_:)`` scan reports only its library's
  ///   refusal, since the scan that chose the library reported the rest.
  public static func open(_ configuration: PluginRegistry.Configuration, skipping: Set<String>)
    -> ScanFiles
  {
    var scan = ScanFiles(files: [])
    let candidates: [String]
    switch configuration.selection {
    case .everything, .libraries:
      (candidates, scan.diagnostics) = configuration.searchPath.candidates()
    case .library(let path):
      candidates = [path]
    case .dataAnimators:
      candidates = []
    }
    for path in candidates where !skipping.contains(path) {
      switch openJudged(path, configuration) {
      case .opened(let descriptor, let problem):
        if let problem, configuration.selection != .library(path) {
          scan.diagnostics.append(problem)
        }
        scan.files.append(
          File(
            kind: .library, path: path, descriptor: descriptor,
            version: FileSystem.version(descriptor: descriptor)?.text))
      case .refused(let diagnostic):
        scan.diagnostics.append(diagnostic)
      }
    }
    if configuration.selection == .everything || configuration.selection == .dataAnimators {
      scan.addDataAnimators(configuration)
    }
    return scan
  }

  /// The data animator files of `configuration.animatorPaths`.
  private mutating func addDataAnimators(_ configuration: PluginRegistry.Configuration) {
    for directory in configuration.animatorPaths {
      guard let real = FileSystem.realPath(directory), FileSystem.kind(of: real) == .directory
      else {
        diagnostics.append(
          PluginDiagnostic(
            .missingPath, .debug, path: directory,
            "animator directory \(directory) does not exist; skipped"))
        continue
      }
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: real).filter {
          $0.hasSuffix(".json") && !$0.hasPrefix(".")
        }.sorted()
      } catch {
        diagnostics.append(
          PluginDiagnostic(
            .unreadableDirectory, .warning, path: real,
            "animator directory \(real) cannot be listed; skipped"))
        continue
      }
      for file in names {
        let name = String(file.dropLast(".json".count))
        let entry = real == "/" ? "/\(file)" : "\(real)/\(file)"
        guard FileSystem.kind(of: entry) == .file, let path = FileSystem.realPath(entry) else {
          if let broken = FileSystem.brokenLink(entry) {
            diagnostics.append(
              PluginDiagnostic(
                .missingPath, .warning, path: entry, "animator file \(entry) \(broken); skipped"))
          }
          continue
        }
        switch Self.openJudged(path, configuration) {
        case .opened(let descriptor, let problem):
          if let problem { diagnostics.append(problem) }
          files.append(File(kind: .data, path: path, name: name, descriptor: descriptor))
        case .refused(let diagnostic):
          diagnostics.append(diagnostic)
          files.append(
            File(kind: .data, path: path, name: name, descriptor: -1, refusal: diagnostic.message))
        }
      }
    }
  }

  private enum Judged {
    /// Open; with the ownership problem when `allowInsecurePlugins` let it through.
    case opened(Int32, PluginDiagnostic?)
    case refused(PluginDiagnostic)
  }

  /// Opens the file at the real path `path` (no symlink followed, and without waiting: a FIFO
  /// swapped in after the scan looked cannot hold the daemon), then judges it: a regular file,
  /// the file itself through the descriptor, the directories above it by path, and that the
  /// path still names the file opened.
  private static func openJudged(
    _ path: String, _ configuration: PluginRegistry.Configuration
  ) -> Judged {
    let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      let reason = String(cString: strerror(errno))
      return .refused(
        PluginDiagnostic(.openFailed, .warning, path: path, "cannot open \(path): \(reason)"))
    }
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      close(descriptor)
      return .refused(
        PluginDiagnostic(
          .openFailed, .warning, path: path, "cannot open \(path): not a regular file"))
    }
    let opened = FileSystem.version(descriptor: descriptor)
    let named = FileSystem.version(of: path)
    guard let opened, let named, opened.device == named.device, opened.inode == named.inode
    else {
      close(descriptor)
      return .refused(
        PluginDiagnostic(
          .openFailed, .warning, path: path, "\(path) changed while it was being opened"))
    }
    if let problem = PermissionCheck.problem(
      realPath: path, descriptor: descriptor, allowInsecure: configuration.allowInsecurePlugins,
      trustedUID: configuration.trustedUID)
    {
      guard configuration.allowInsecurePlugins else {
        close(descriptor)
        return .refused(problem)
      }
      return .opened(descriptor, problem)
    }
    return .opened(descriptor, nil)
  }
}
