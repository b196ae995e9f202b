import Foundation
import UnixIO

/// A worker of the soak in its own process: this executable again, as
/// `transition-soak worker ROLE …`, whose one line of standard output is its ``WorkerReport``.
final class WorkerProcess {
  let role: String
  let process = Process()
  private let output = Pipe()

  /// Starts the worker of `role`, on CPU `cpu` alone when one is given (through `taskset`).
  init(role: String, arguments: [String], cpu: Int? = nil) throws {
    self.role = role
    let command = [Self.executablePath, "worker", role] + arguments
    if let cpu {
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = CPUAffinity.command(command, on: [cpu])
    } else {
      process.executableURL = URL(fileURLWithPath: Self.executablePath)
      process.arguments = Array(command.dropFirst())
    }
    process.standardOutput = output
    try process.run()
  }

  /// This executable's path (`/proc/self/exe`).
  static let executablePath: String = {
    var path = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &path, path.count - 1)
    return count > 0
      ? String(decoding: path[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
      : CommandLine.arguments[0]
  }()

  /// Waits for the worker to end and reads its report.
  /// - Returns: the report, or one that notes why there is none.
  func finish() -> WorkerReport {
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    if let report = try? JSONDecoder().decode(WorkerReport.self, from: data) {
      return report
    }
    var missing = WorkerReport(role: role)
    missing.unanswered += 1
    missing.note("the \(role) worker ended (status \(process.terminationStatus)) without a report")
    return missing
  }
}
