/// The path a library open as a descriptor is loaded under: `/proc/self/fd/N`, which the
/// kernel resolves to the open file whoever the process is and whatever directories it
/// cannot reach.
///
/// `dlopen` returns the library already loaded under a name it is given again, and a
/// descriptor's number is reused once it is closed; so a name already used gets `./` steps
/// inserted (`/proc/self/fd/./N`), which name the same file and differ as strings.
enum DescriptorPath {
  /// The first of `/proc/self/fd/N`, `/proc/self/fd/./N`, … not in `used`.
  static func name(of descriptor: Int32, avoiding used: Set<String>) -> String {
    var steps = ""
    while true {
      let name = "/proc/self/fd/\(steps)\(descriptor)"
      if !used.contains(name) { return name }
      steps += "./"
    }
  }
}
