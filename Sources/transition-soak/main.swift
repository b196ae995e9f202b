// transition-soak: transitiond under a bounded churn from several processes, failing on
// growth, on a healthy subscriber's gap or lateness and on a request without a reply
// (docs/security.md, "Soak"). `make soak SOAK_SECONDS=N` runs it; `transition-soak worker
// ROLE …` is one of its worker processes.

import Foundation
import TransitionClient

let arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("transition-soak: \(message)\n".utf8))
  exit(status)
}

if arguments.first == "worker" {
  do {
    let worker = try WorkerOptions(arguments: Array(arguments.dropFirst()))
    print(try worker.run().line)
    exit(0)
  } catch {
    fail("\(error)", status: 64)
  }
}
if arguments.contains("--help") || arguments.contains("-h") {
  print(SoakOptions.usage)
  exit(0)
}
do {
  let options = try SoakOptions(
    arguments: arguments,
    executableDirectory: URL(fileURLWithPath: WorkerProcess.executablePath)
      .deletingLastPathComponent().path)
  let failures = try SoakRun(options: options).run()
  if failures.isEmpty {
    print("soak passed")
    exit(0)
  }
  print("soak FAILED:\n" + failures.map { "  \($0)" }.joined(separator: "\n"))
  exit(1)
} catch {
  fail("\(error)", status: 2)
}
