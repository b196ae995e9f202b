import Glibc

/// Finds programs the way a shell does: a name with a slash as it is, else the first
/// executable file of that name in `$PATH`.
public enum ExecutableLookup {
  /// The path of `name`, or nil when there is no such executable.
  public static func find(_ name: String, path: String?) -> String? {
    if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
    let directories = (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for directory in directories where !directory.isEmpty {
      let candidate = "\(directory)/\(name)"
      var info = stat()
      if stat(candidate, &info) == 0, info.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0
      {
        return candidate
      }
    }
    return nil
  }
}
