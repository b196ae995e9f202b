import Glibc

/// A process's scheduling state and CPU time from `/proc/<pid>/stat`: what tells a plugin that
/// hung (asleep, or spinning on a CPU it got) from one that never got a CPU on a loaded
/// machine.
public struct ProcessCPUSample: Equatable, Sendable {
  /// The state letter (`R` runnable, `S` sleeping, `D`, `Z`, …).
  public var state: Character
  /// User plus system CPU time, in seconds.
  public var cpuSeconds: Double

  public init(state: Character, cpuSeconds: Double) {
    self.state = state
    self.cpuSeconds = cpuSeconds
  }

  /// Reads `/proc/<pid>/stat`; nil when the process is gone or the file cannot be parsed.
  public static func read(pid: Int32) -> ProcessCPUSample? {
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 1024)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let line = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return parse(line, ticksPerSecond: Double(sysconf(Int32(_SC_CLK_TCK))))
  }

  /// Parses a `stat` line: the fields after the command name (which may hold spaces and
  /// parentheses, so the last `)` ends it).
  public static func parse(_ line: String, ticksPerSecond: Double) -> ProcessCPUSample? {
    guard let close = line.lastIndex(of: ")"), ticksPerSecond > 0 else { return nil }
    let fields = line[line.index(after: close)...].split(separator: " ")
    // fields[0] is the state (field 3 of stat); utime and stime are fields 14 and 15.
    guard fields.count > 12, let state = fields[0].first, let user = Double(fields[11]),
      let system = Double(fields[12])
    else { return nil }
    return ProcessCPUSample(state: state, cpuSeconds: (user + system) / ticksPerSecond)
  }

  /// Whether a call that ran from `start` to `self` over `elapsed` seconds was starved: the
  /// process is still runnable yet got less than half of the time on a CPU. A plugin that
  /// sleeps, blocks or spins on a CPU it has is not starved.
  public func wasStarved(since start: ProcessCPUSample, elapsed: Double) -> Bool {
    state == "R" && cpuSeconds - start.cpuSeconds < elapsed / 2
  }
}
