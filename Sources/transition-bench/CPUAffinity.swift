import Foundation

/// Which CPUs a process may run on, so that `scale --daemon-cpu` can measure the daemon on a
/// core its readers do not share: read from `/proc/<pid>/status`, set with `taskset`.
enum CPUAffinity {
  /// The CPUs process `pid` may use now (its `Cpus_allowed_list`).
  static func allowed(pid: Int32 = getpid()) throws -> [Int] {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard
      let line = status.split(separator: "\n").first(where: {
        $0.hasPrefix("Cpus_allowed_list:")
      })
    else { throw BenchError("/proc/\(pid)/status has no Cpus_allowed_list") }
    return line.dropFirst("Cpus_allowed_list:".count).split(separator: ",").flatMap { range in
      let bounds = range.split(separator: "-").compactMap {
        Int($0.trimmingCharacters(in: .whitespaces))
      }
      guard let first = bounds.first, let last = bounds.last, first <= last else { return [Int]() }
      return Array(first...last)
    }
  }

  /// Restricts every thread of process `pid` to `cpus` (`taskset -a -p -c`); threads they
  /// start later inherit it.
  static func restrict(process pid: Int32, to cpus: [Int]) throws {
    let taskset = Process()
    taskset.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    taskset.arguments = [
      "taskset", "-a", "-p", "-c", cpus.map(String.init).joined(separator: ","), "\(pid)",
    ]
    taskset.standardOutput = FileHandle.nullDevice
    try taskset.run()
    taskset.waitUntilExit()
    guard taskset.terminationStatus == 0, try allowed(pid: pid) == cpus.sorted() else {
      throw BenchError("taskset could not restrict process \(pid) to CPUs \(cpus)")
    }
  }
}
