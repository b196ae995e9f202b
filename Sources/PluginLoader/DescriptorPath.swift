import Synchronization

/// The path a library open as a descriptor is loaded under: `/proc/self/fd/N`, which the
/// kernel resolves to the open file whoever the process is and whatever directories it
/// cannot reach.
///
/// `dlopen` hands back the library already loaded under a name it is given again, and a
/// descriptor's number is reused once it is closed; so a name that already names a loaded
/// library gets `./` steps inserted (`/proc/self/fd/./N`), which name the same file and differ
/// as strings. The names in use are the process's (every registry shares the one list of
/// loaded libraries), and libraries are never unloaded, so a name once used stays used.
enum DescriptorPath {
  private static let used = Mutex<Set<String>>([])

  /// Runs `load` with a name for `descriptor` that names no loaded library, all under one
  /// lock, and keeps the name when `load` reports that it loaded something under it.
  static func withLoadName<Result>(
    of descriptor: Int32, _ load: (String) -> (Result, loaded: Bool)
  ) -> Result {
    used.withLock { used in
      var steps = ""
      var name = "/proc/self/fd/\(descriptor)"
      while used.contains(name) {
        steps += "./"
        name = "/proc/self/fd/\(steps)\(descriptor)"
      }
      let (result, loaded) = load(name)
      if loaded { used.insert(name) }
      return result
    }
  }
}
