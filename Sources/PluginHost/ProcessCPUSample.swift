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
  /// Taken as each plugin call is sent, so it reads into a stack buffer and parses the bytes
  /// (no `FILE`, no `String`).
  public static func read(pid: Int32) -> ProcessCPUSample? {
    let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { buffer in
      let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
      guard count > 0 else { return nil }
      return parse(UnsafeBufferPointer(rebasing: buffer[..<count]), ticksPerSecond: clockTicks)
    }
  }

  /// The kernel's clock ticks a second, the unit of `utime` and `stime`.
  private static let clockTicks = Double(sysconf(Int32(_SC_CLK_TCK)))

  /// Parses a `stat` line: the fields after the command name (which may hold spaces and
  /// parentheses, so the last `)` ends it).
  public static func parse(_ line: String, ticksPerSecond: Double) -> ProcessCPUSample? {
    Array(line.utf8).withUnsafeBufferPointer { parse($0, ticksPerSecond: ticksPerSecond) }
  }

  /// Parses the bytes of a `stat` line, as ``parse(_:ticksPerSecond:)-(String,_)``.
  static func parse(_ line: UnsafeBufferPointer<UInt8>, ticksPerSecond: Double)
    -> ProcessCPUSample?
  {
    guard let close = line.lastIndex(of: UInt8(ascii: ")")), ticksPerSecond > 0 else {
      return nil
    }
    // The fields after the name, counted from 0: the state (field 3 of stat), then utime
    // and stime at 11 and 12 (fields 14 and 15), whole ticks.
    var state: UInt8?
    var user: UInt64?
    var system: UInt64?
    var field = 0
    var start = close + 1
    for index in (close + 1)...line.count {
      let ends = index == line.count || line[index] == UInt8(ascii: " ") || line[index] == 0x0A
      guard ends else { continue }
      defer { start = index + 1 }
      guard index > start else { continue }
      let text = UnsafeBufferPointer(rebasing: line[start..<index])
      switch field {
      case 0: state = text[0]
      case 11: user = wholeNumber(text)
      case 12: system = wholeNumber(text)
      default: break
      }
      field += 1
      if field > 12 || (index < line.count && line[index] == 0x0A) { break }
    }
    guard let state, let user, let system else { return nil }
    return ProcessCPUSample(
      state: Character(Unicode.Scalar(state)),
      cpuSeconds: (Double(user) + Double(system)) / ticksPerSecond)
  }

  /// The decimal digits `text` holds as a number; nil for anything else or above 10^18.
  private static func wholeNumber(_ text: UnsafeBufferPointer<UInt8>) -> UInt64? {
    guard text.count <= 18 else { return nil }
    var value: UInt64 = 0
    for digit in text {
      guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + UInt64(digit - UInt8(ascii: "0"))
    }
    return value
  }

  /// Whether a call that ran from `start` to `self` over `elapsed` seconds was starved: the
  /// process is still runnable yet got less than half of the time on a CPU. A plugin that
  /// sleeps, blocks or spins on a CPU it has is not starved.
  public func wasStarved(since start: ProcessCPUSample, elapsed: Double) -> Bool {
    state == "R" && cpuSeconds - start.cpuSeconds < elapsed / 2
  }
}
