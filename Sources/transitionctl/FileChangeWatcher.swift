import Foundation
import Glibc

/// Watches a few files with inotify for `play --watch`: each file's directory is watched, not
/// the file, so that an editor's save by a write to a temporary file and a rename into place
/// (a new inode) is seen as a change of the file's name, as is a plain write.
///
/// The descriptor (``descriptor``) becomes readable when something happens in one of the
/// directories; ``changedFiles(settle:)`` then reads what happened and, once the directories
/// have been quiet for `settle`, says which of the watched files changed (an editor's burst,
/// such as a backup, a write and a rename, counts once).
final class FileChangeWatcher {
  /// The inotify descriptor to poll.
  let descriptor: Int32
  /// The watched files' real paths.
  private(set) var files: Set<String> = []
  /// Watch descriptor → the directory it watches.
  private var directories: [Int32: String] = [:]

  /// - Throws: ``ExitCode/software`` when inotify is not available.
  init() throws(CommandFailure) {
    descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    guard descriptor >= 0 else {
      throw CommandFailure(
        ExitCode.software, "cannot watch files: inotify: \(String(cString: strerror(errno)))")
    }
  }

  deinit { close(descriptor) }

  /// The real path of `path` (links resolved), or `path` made absolute when it does not exist.
  static func realPath(_ path: String) -> String {
    if let resolved = realpath(path, nil) {
      defer { free(resolved) }
      return String(cString: resolved)
    }
    return URL(fileURLWithPath: path).standardizedFileURL.path
  }

  /// Watches `paths` from now on, instead of what was watched.
  ///
  /// - Throws: ``ExitCode/noInput`` naming a directory that cannot be watched.
  func watch(_ paths: [String]) throws(CommandFailure) {
    let wanted = Set(paths.map(Self.realPath))
    guard wanted != files else { return }
    for watch in directories.keys { inotify_rm_watch(descriptor, watch) }
    directories = [:]
    files = wanted
    let mask =
      UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
      | UInt32(IN_ATTRIB)
    for directory in Set(wanted.map { ($0 as NSString).deletingLastPathComponent }) {
      let watch = inotify_add_watch(descriptor, directory, mask | UInt32(IN_ONLYDIR))
      guard watch >= 0 else {
        throw CommandFailure(
          ExitCode.noInput,
          "cannot watch \(directory): \(String(cString: strerror(errno)))")
      }
      directories[watch] = directory
    }
  }

  /// Reads the pending events, then keeps reading until the directories have been quiet for
  /// `settle`.
  ///
  /// - Returns: the watched files (real paths) that were written, created, renamed into place,
  ///   removed or had their attributes changed; all of them when the kernel lost events.
  func changedFiles(settle: Duration = .milliseconds(50)) -> Set<String> {
    var changed = Set<String>()
    repeat {
      changed.formUnion(drain())
    } while DescriptorPoll.firstReadable([descriptor], within: settle) != nil
    return changed
  }

  /// Reads every event waiting now.
  private func drain() -> Set<String> {
    var changed = Set<String>()
    var buffer = [UInt8](repeating: 0, count: 8192)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return changed }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= count {
        let (watch, mask, length) = buffer.withUnsafeBytes { raw in
          (
            raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
            raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
            Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
          )
        }
        let nameBytes = buffer[(offset + header)..<min(offset + header + length, count)]
        let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
        offset += header + length
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
          changed.formUnion(files)
        } else if let directory = directories[watch] {
          let path = directory == "/" ? "/\(name)" : "\(directory)/\(name)"
          if files.contains(path) { changed.insert(path) }
        }
      }
    }
  }
}

@available(*, unavailable) extension FileChangeWatcher: Sendable {}
