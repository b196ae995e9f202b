import Foundation

/// A worker of the soak in its own process: this executable again, as
/// `transition-soak worker ROLE …`, whose one line of standard output is its ``WorkerReport``.
final class WorkerProcess {
  let role: String
  let process = Process()
  private let output = Pipe()

  init(role: String, arguments: [String]) throws {
    self.role = role
    process.executableURL = URL(fileURLWithPath: Self.executablePath)
    process.arguments = ["worker", role] + arguments
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
