/// The C compiler of the C libraries' tests: a compiler warning fails the build, as a strict
/// C compiler on the headers should.
enum CCompiler {
  /// Runs `compiler` with `arguments`.
  ///
  /// - Throws: ``DaemonHarnessError`` with the command and its diagnostics when it fails or
  ///   warns.
  static func compile(_ arguments: [String], compiler: String = "cc") throws {
    let result = try DaemonHarness.runProgram("/usr/bin/env", [compiler] + arguments)
    guard result.status == 0, !result.stderr.contains("warning:") else {
      throw DaemonHarnessError("\(compiler) \(arguments.joined(separator: " ")): \(result.stderr)")
    }
  }
}
