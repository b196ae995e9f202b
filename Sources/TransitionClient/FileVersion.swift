import Glibc

/// One version of a file as the daemon's `animators` listing names it (`fileVersion`):
/// `DEVICE:INODE:SIZE:SECONDS.NANOSECONDS` from stat(2), the nanoseconds in nine digits.
///
/// An editor that saves by writing a temporary file and renaming it into place gives the file
/// a new inode; one that writes in place changes its size or modification time: either way the
/// text changes, so a client that stats a data animator's file and finds the text the daemon
/// lists knows that the daemon serves the file as it is now.
public enum FileVersion {
  /// The version of the file at `path` now (symlinks followed), or nil when it cannot be
  /// examined.
  public static func of(path: String) -> String? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    let nanoseconds = String(info.st_mtim.tv_nsec)
    let padded = String(repeating: "0", count: max(0, 9 - nanoseconds.count)) + nanoseconds
    return "\(UInt64(info.st_dev)):\(UInt64(info.st_ino)):\(Int64(info.st_size)):"
      + "\(info.st_mtim.tv_sec).\(padded)"
  }
}
