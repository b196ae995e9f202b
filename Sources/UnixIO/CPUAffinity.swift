import Glibc

/// Which CPUs a process may run on: read from `/proc/<pid>/status`, set with `taskset`
/// (util-linux), for the tools that measure a process on a CPU of its own
/// (`transition-bench scale --daemon-cpu`, the soak's wake-up probes).
public enum CPUAffinity {
  /// Why the CPUs could not be read or set.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
  }

  /// The CPUs process `pid` may use now (its `Cpus_allowed_list`).
  public static func allowed(pid: Int32 = getpid()) throws(Failure) -> [Int] {
    let path = "/proc/\(pid)/status"
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw Failure(description: "cannot read \(path)") }
    defer { close(descriptor) }
    var text: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while case let count = read(descriptor, &chunk, chunk.count), count > 0 {
      text += chunk[..<count]
    }
    let prefix = "Cpus_allowed_list:"
    guard
      let line = String(decoding: text, as: UTF8.self).split(separator: "\n").first(where: {
        $0.hasPrefix(prefix)
      })
    else { throw Failure(description: "\(path) has no Cpus_allowed_list") }
    return line.dropFirst(prefix.count).split(separator: ",").flatMap { range in
      let bounds = range.split(separator: "-").compactMap {
        Int($0.filter { $0 != " " && $0 != "\t" })
      }
      guard let first = bounds.first, let last = bounds.last, first <= last else { return [Int]() }
      return Array(first...last)
    }
  }

  /// The arguments of `/usr/bin/env` that run `command` on `cpus` alone (`taskset -c`, which
  /// then executes it in its own process).
  public static func command(_ command: [String], on cpus: [Int]) -> [String] {
    ["taskset", "-c", list(cpus)] + command
  }

  /// Restricts every thread of process `pid` to `cpus` (`taskset -a -p -c`); threads they
  /// start later inherit it.
  public static func restrict(process pid: Int32, to cpus: [Int]) throws(Failure) {
    guard taskset(["-a", "-p", "-c", list(cpus), "\(pid)"]) == 0,
      try allowed(pid: pid) == cpus.sorted()
    else {
      throw Failure(description: "taskset could not restrict process \(pid) to CPUs \(cpus)")
    }
  }

  /// Whether a command can be run on `cpu` alone (``command(_:on:)`` works here: `taskset` is
  /// installed and may set the CPU).
  public static func canRun(on cpu: Int) -> Bool {
    taskset(["-c", "\(cpu)", "true"]) == 0
  }

  /// Runs `taskset` with `arguments`, its output discarded; its exit status, nil when it could
  /// not be run or was killed.
  private static func taskset(_ arguments: [String]) -> Int32? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
    guard
      let child = try? spawnProcess(
        executable: "/usr/bin/env", arguments: ["taskset"] + arguments,
        environment: ["PATH": path], fileActions: &actions)
    else { return nil }
    return exitStatus(ofWaitStatus: waitForChild(child))
  }

  private static func list(_ cpus: [Int]) -> String {
    cpus.map(String.init).joined(separator: ",")
  }
}
