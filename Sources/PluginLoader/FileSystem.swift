import Foundation

/// The few file-system facts the plugin host needs, from `stat` and `realpath`.
enum FileSystem {
  /// What a path names, following symlinks.
  enum Kind: Equatable { case file, directory, missing }

  static func kind(of path: String) -> Kind {
    var info = stat()
    guard stat(path, &info) == 0 else { return .missing }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return .directory
    case S_IFREG: return .file
    default: return .missing
    }
  }

  /// Why `path`, a symlink, cannot be followed: "is a symlink loop" (`ELOOP`) or "is a
  /// dangling symlink to TARGET"; nil when `path` is no symlink or leads to something.
  static func brokenLink(_ path: String) -> String? {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK else { return nil }
    guard stat(path, &info) != 0 else { return nil }
    if errno == ELOOP { return "is a symlink loop" }
    var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink(path, &target, target.count - 1)
    let text =
      length >= 0
      ? String(decoding: target[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
    return "is a dangling symlink to \(text)"
  }

  /// The canonical absolute path with every symlink resolved, or `nil` if it does not exist.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  /// The directory part of an absolute path (`/` for a file at the root).
  static func directory(of path: String) -> String {
    let directory = (path as NSString).deletingLastPathComponent
    return directory.isEmpty ? "/" : directory
  }

  /// The owner and permission bits of `path` itself (`lstat`: a symlink is not followed), or
  /// `nil` if it cannot be examined.
  static func ownerAndMode(of path: String) -> (uid: uid_t, mode: mode_t)? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return (info.st_uid, info.st_mode & 0o7777)
  }

  /// What identifies one version of a file: a rebuilt library has another inode, size or
  /// modification time.
  struct FileVersion: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int

    /// `DEVICE:INODE:SIZE:SECONDS.NANOSECONDS`, the nanoseconds in nine digits
    /// (``RegisteredAnimator/fileVersion``).
    var text: String {
      let nanoseconds = String(modifiedNanoseconds)
      let padded = String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
      return "\(device):\(inode):\(size):\(modifiedSeconds).\(padded)"
    }
  }

  /// The version of the file `path` names (symlinks followed), or `nil` if it cannot be examined.
  static func version(of path: String) -> FileVersion? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileVersion(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
  }

  /// The version of the open file `descriptor` (`fstat`), or `nil` if it cannot be examined.
  static func version(descriptor: Int32) -> FileVersion? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return FileVersion(
      device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
      modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
  }

  /// The owner and permission bits of the open file `descriptor` (`fstat`), or `nil`.
  static func ownerAndMode(descriptor: Int32) -> (uid: uid_t, mode: mode_t)? {
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { return nil }
    return (info.st_uid, info.st_mode & 0o7777)
  }

  /// A mode as four octal digits, as `ls` and `chmod` write it: `0664`.
  static func octal(_ mode: mode_t) -> String {
    let digits = String(mode, radix: 8)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}
