import DataAnimator
import Foundation
import PluginValues
import TransitionKit

/// The data animators of the `animatorPaths` directories (docs/animators.md): each `<name>.json`
/// read, validated and kept with its last good version.
///
/// A rescan reads only files that changed (inode, size or modification time). A file that no
/// longer validates keeps its last good version serving and carries the error; one that never
/// validated is listed with its error and serves nothing; a file that is gone takes its
/// animator with it. Files are refused, like libraries, when they or a directory above them
/// could be written by another user (`PermissionCheck`), unless `allowInsecurePlugins`.
///
/// Not thread-safe: `PluginRegistry` holds it under its lock.
struct DataAnimatorCatalog {
  struct Entry {
    var name: String
    /// The file's real path.
    var path: String
    var version: FileSystem.FileVersion?
    /// The last version that validated.
    var animator: DataAnimator?
    /// Why the file as it is now does not validate (its first problem), or nil.
    var error: String?

    var listing: RegisteredAnimator {
      RegisteredAnimator(
        name: name, operations: animator?.operations ?? [],
        defaultDuration: animator?.defaultDuration ?? 1, pluginName: "data",
        pluginVersion: "", libraryPath: path, kind: .data,
        parameters: animator?.parameters ?? [], error: error, fileVersion: version?.text,
        hasReducedForm: animator?.hasReducedForm ?? false)
    }
  }

  /// The animators in scan order: directories in order, files by name.
  private(set) var entries: [Entry] = []

  /// The entry called `name`.
  func entry(named name: String) -> Entry? {
    entries.first { $0.name == name }
  }

  /// Reads the data animator files of a scan again.
  /// - Parameters:
  ///   - files: the scan's data animator files, in scan order (``ScanFiles``): each open, or
  ///     listed with the reason it was refused.
  ///   - takenNames: names of animators from libraries, which win over a file of the same name.
  /// - Returns: what the scan noticed, for the daemon's log.
  mutating func rescan(files: [ScanFiles.File], takenNames: Set<String>) -> [PluginDiagnostic] {
    var diagnostics: [PluginDiagnostic] = []
    var next: [Entry] = []
    var seen: [String: String] = [:]
    for file in files where file.kind == .data {
      let name = file.name
      let filePath = file.path
      if let earlier = seen[name] ?? (takenNames.contains(name) ? "a plugin library" : nil) {
        diagnostics.append(
          PluginDiagnostic(
            .duplicateAnimator, .warning, path: filePath,
            "data animator \(name) of \(filePath) is refused: the name is already taken by "
              + earlier))
        continue
      }
      seen[name] = filePath
      var entry =
        entries.first { $0.name == name && $0.path == filePath }
        ?? Entry(name: name, path: filePath, version: nil, animator: nil, error: nil)
      guard file.refusal == nil, file.descriptor >= 0 else {
        entry.animator = nil
        entry.version = nil
        entry.error = file.refusal ?? "\(filePath) was not handed over"
        next.append(entry)
        continue
      }
      let version = FileSystem.version(descriptor: file.descriptor)
      if version == nil || version != entry.version {
        entry.version = version
        read(&entry, descriptor: file.descriptor, into: &diagnostics)
      }
      next.append(entry)
    }
    for gone in entries where !next.contains(where: { $0.name == gone.name }) {
      diagnostics.append(
        PluginDiagnostic(
          .animatorRemoved, .info, path: gone.path,
          "data animator \(gone.name) removed: \(gone.path) is gone"))
    }
    entries = next
    return diagnostics
  }

  /// Reads and validates the data animator file at `path` (its animator is named after the
  /// file), as a scan does but without the ownership rule.
  static func read(path: String) -> Result<DataAnimator, AnimatorFileError> {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else {
      let reason = "cannot be opened: \(String(cString: strerror(errno)))"
      return .failure(
        AnimatorFileError([
          ValidationIssue(
            file: path, line: 1, column: 1, pointer: "", message: "the file \(reason)")
        ]))
    }
    defer { close(descriptor) }
    return read(descriptor: descriptor, path: path)
  }

  /// Reads and validates the data animator file open as `descriptor`, whose real path is
  /// `path` (its animator is named after the file).
  static func read(descriptor: Int32, path: String) -> Result<DataAnimator, AnimatorFileError> {
    let file = (path as NSString).lastPathComponent
    let name = file.hasSuffix(".json") ? String(file.dropLast(".json".count)) : file
    switch contents(of: descriptor) {
    case .failure(let problem):
      return .failure(
        AnimatorFileError([
          ValidationIssue(
            file: path, line: 1, column: 1, pointer: "", message: "the file \(problem.reason)")
        ]))
    case .success(let bytes):
      return DataAnimator.read(bytes, name: name, file: path)
    }
  }

  /// Reads and validates one file into its entry.
  private func read(
    _ entry: inout Entry, descriptor: Int32, into diagnostics: inout [PluginDiagnostic]
  ) {
    switch Self.read(descriptor: descriptor, path: entry.path) {
    case .success(let animator):
      entry.animator = animator
      entry.error = nil
      diagnostics.append(
        PluginDiagnostic(
          .loaded, .info, path: entry.path,
          "loaded data animator \(entry.name) from \(entry.path)"))
    case .failure(let failure):
      let first = failure.issues[0].description
      let more = failure.issues.count > 1 ? " (and \(failure.issues.count - 1) more)" : ""
      entry.error = first
      let consequence =
        entry.animator == nil
        ? "it serves nothing" : "its last good version keeps serving"
      diagnostics.append(
        PluginDiagnostic(
          .invalidAnimatorFile, .error, path: entry.path, "\(first)\(more); \(consequence)"))
    }
  }

  /// The bytes of the regular file open as `descriptor`, read from its start (`pread`, so a
  /// descriptor read before reads the same), at most one byte past the format's limit (so
  /// that an oversized file is reported as such, not read whole). The buffer starts at the
  /// file's size and grows only if the file does while it is read, never a buffer of the
  /// limit's size for every file (a plugin host's start-up reads them all).
  static func contents(of descriptor: Int32) -> Result<[UInt8], FileProblem> {
    var info = stat()
    guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
      return .failure(FileProblem("is not a regular file"))
    }
    let limit = DataAnimator.maximumFileBytes + 1
    // One byte past the size, so that the end of the file is seen without another read.
    var bytes = [UInt8](repeating: 0, count: min(limit, max(0, Int(info.st_size)) + 1))
    var count = 0
    while count < limit {
      if count == bytes.count {
        bytes += repeatElement(0, count: min(limit, 2 * bytes.count) - bytes.count)
      }
      let got = bytes.withUnsafeMutableBytes { buffer in
        pread(descriptor, buffer.baseAddress! + count, buffer.count - count, off_t(count))
      }
      if got < 0 && errno == EINTR { continue }
      guard got >= 0 else {
        return .failure(FileProblem("cannot be read: \(String(cString: strerror(errno)))"))
      }
      if got == 0 { break }
      count += got
    }
    return .success(Array(bytes[0..<count]))
  }
}

/// Why a data animator file could not be read.
struct FileProblem: Error {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
