import Foundation

/// What /proc says about a process: resident memory, threads, open descriptors, its parent,
/// and its children.
enum ProcessProbe {
  /// `VmRSS` in bytes; nil when the process is gone.
  static func residentBytes(of pid: Int32) -> Double? {
    statusField("VmRSS:", of: pid).map { $0 * 1024 }
  }

  /// `Threads`; nil when the process is gone.
  static func threads(of pid: Int32) -> Double? {
    statusField("Threads:", of: pid)
  }

  /// The entries of `/proc/PID/fd`; nil when the process is gone.
  static func descriptors(of pid: Int32) -> Double? {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")).map {
      Double($0.count)
    }
  }

  /// The processes whose parent is `pid`.
  static func children(of pid: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap { entry in
      guard let child = Int32(entry),
        let text = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
        let close = text.lastIndex(of: ")")
      else { return nil }
      // After the command name: state, then the parent's pid.
      let fields = text[text.index(after: close)...].split(separator: " ")
      return fields.count > 1 && Int32(fields[1]) == pid ? child : nil
    }
  }

  private static func statusField(_ name: String, of pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) })
    else { return nil }
    return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).lazy.compactMap { Double($0) }
      .first
  }
}
