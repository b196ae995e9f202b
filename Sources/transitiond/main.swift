import Glibc
import PluginCheck
import PluginHost
import TransitionServer

if CommandLine.arguments.dropFirst().first == "check-plugin" {
  exit(PluginCheckCommand.run(Array(CommandLine.arguments.dropFirst(2))))
}

/// `EX_USAGE` from sysexits.h.
let usageExitStatus: Int32 = 64

// `transitiond plugin-host …`: this executable started by the daemon as its plugin host
// (docs/plugins.md, "Isolation"); it never returns.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == HostCommandLine.subcommand {
  runPluginHost(Array(CommandLine.arguments.dropFirst(2)))
}

let request: CommandLineRequest
do {
  request = try parseCommandLine(Array(CommandLine.arguments.dropFirst()))
} catch {
  let line = Array("transitiond: \(error.message)\n".utf8)
  _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  exit(usageExitStatus)
}

switch request {
case .help:
  print(usageText, terminator: "")
case .version:
  print("transitiond \(ServerCore.version) (protocol \(ServerCore.protocolVersion))")
case .run(var options):
  // No --config: the installed layout's config, then /etc's, else the built-in defaults.
  if options.configPath == nil { options.configPath = InstalledLayout.running.defaultConfig() }
  keepFreedHeap()
  do {
    let daemon = try Daemon(options: options)
    UnexpectedExit.arm()
    try daemon.run()
    UnexpectedExit.disarm()
  } catch {
    UnexpectedExit.disarm()
    Logger(level: .error).error(error.message)
    exit(error.exitStatus)
  }
}
