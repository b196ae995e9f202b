import Foundation

/// A child process of transition-bench running one of its hidden helper command lines (the
/// fairness load, the echo process): started from this very executable, it prints one line
/// beginning with `ready` once it is set up, and runs until it ends or is stopped.
final class HelperProcess {
  private let process = Process()
  /// What the child printed after `ready` (trimmed).
  let readyDetail: String

  /// Starts the child with `arguments` and waits for its `ready` line.
  /// - Throws: ``BenchError`` with `failure` when the child ends or says anything else first.
  init(arguments: [String], failure: String) throws {
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
      .resolvingSymlinksInPath()
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    DaemonProcess.running.add(process)
    let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
    guard line.hasPrefix("ready") else {
      readyDetail = ""
      stop()
      throw BenchError(failure)
    }
    readyDetail = line.dropFirst("ready".count).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// Ends the child (SIGTERM) unless it has ended, and waits for it.
  func stop() {
    DaemonProcess.running.remove(process)
    if process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
  }

  deinit { stop() }
}
