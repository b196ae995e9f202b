import DaemonLauncher
import DaemonSupport
import Foundation

/// A `transitiond` started by the benchmark on a temporary socket, with the plugins built
/// beside it and the data animators of ``animatorDirectory``, and what /proc says about it: CPU time (`/proc/<pid>/stat`) and peak resident
/// memory (`VmHWM` in `/proc/<pid>/status`).
final class DaemonProcess {
  let socketPath: String
  let launcher: DaemonLauncher
  let directory: String
  /// Seconds from starting the process to the first reply on its socket.
  private(set) var startupSeconds = 0.0

  /// The data animators every measured build serves, whichever directory it runs from: the
  /// checkout's `config/animators` when this tool is a `swift build` of it, else the installed
  /// ones beside it. (A baseline copied elsewhere would otherwise find none, and a plugin
  /// library of the same name left in a build directory would shadow them.)
  static let animatorDirectory =
    InstalledLayout.running.checkoutAnimatorDirectory ?? InstalledLayout.running.animatorDirectory

  /// Starts `transitiond` from `binDirectory` and waits until it answers `hello`.
  ///
  /// - Parameter config: Extra JSON members of the daemon's config file (limits), or nil.
  init(binDirectory: URL, config: String? = nil) throws {
    directory = "/tmp/transition-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    socketPath = directory + "/transitiond.sock"
    var arguments = [
      "--plugin-path", binDirectory.path, "--animator-path", Self.animatorDirectory,
      "--log-level", "error",
    ]
    if let config {
      let path = directory + "/transitiond.json"
      try Data("{\(config)}".utf8).write(to: URL(fileURLWithPath: path))
      arguments += ["--config", path]
    }
    let start = Monotonic.now
    launcher = try DaemonLauncher(
      binary: binDirectory.appendingPathComponent("transitiond").path, socketPath: socketPath,
      arguments: arguments)
    Self.running.add(launcher.process)
    guard launcher.waitUntilAccepting(within: 5, every: 0.001) else {
      throw BenchError("transitiond did not accept connections on \(socketPath)")
    }
    let socket = try LineSocket(path: socketPath)
    _ = try socket.request(#"{"op":"hello"}"#)
    startupSeconds = Monotonic.now - start
  }

  var process: Process { launcher.process }

  var pid: Int32 { launcher.pid }

  /// The daemons still running, so that an early exit can stop them.
  static let running = RunningProcesses()

  /// User plus system CPU seconds the daemon has used so far.
  var cpuSeconds: Double { Self.cpuSeconds(of: pid) }

  /// User plus system CPU seconds the daemon's plugin host (its child process) has used so
  /// far; 0 when it has none.
  var hostCPUSeconds: Double { hostPID.map(Self.cpuSeconds(of:)) ?? 0 }

  /// The daemon's plugin host (its child process), if one runs now.
  var hostPID: Int32? {
    guard
      let children = try? String(
        contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)
    else { return nil }
    return children.split(separator: " ").first.flatMap { Int32($0) }
  }

  /// User plus system CPU seconds process `pid` has used so far (`/proc/<pid>/stat`).
  static func cpuSeconds(of pid: Int32) -> Double {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return 0 }
    // Fields after the command name: state is field 3, utime 14 and stime 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
    else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Peak resident set size in bytes (`VmHWM`).
  var peakResidentBytes: Int { statusField("VmHWM:") }

  /// Current resident set size in bytes (`VmRSS`).
  var residentBytes: Int { statusField("VmRSS:") }

  private func statusField(_ name: String) -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) })
    else { return 0 }
    let kilobytes = line.split(separator: " ").compactMap { Int($0) }.first ?? 0
    return kilobytes * 1024
  }

  func stop() {
    Self.running.remove(process)
    launcher.stop()
    try? FileManager.default.removeItem(atPath: directory)
  }
}

/// Processes the benchmark started and has not stopped yet.
final class RunningProcesses: @unchecked Sendable {
  private let lock = NSLock()
  private var processes: [Process] = []

  func add(_ process: Process) {
    lock.lock()
    defer { lock.unlock() }
    processes.append(process)
  }

  func remove(_ process: Process) {
    lock.lock()
    defer { lock.unlock() }
    processes.removeAll { $0 === process }
  }

  /// Terminates every process still running (before an early exit).
  func terminateAll() {
    lock.lock()
    let all = processes
    processes = []
    lock.unlock()
    for process in all where process.isRunning { process.terminate() }
  }
}
