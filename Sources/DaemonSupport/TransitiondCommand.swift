import Glibc
import PluginCheck
import PluginHost
import TransitionServer
import UnixIO

/// `transitiond`'s command line, from its arguments to its exit status: `check-plugin`,
/// `plugin-host` (the daemon's own plugin host process), `--help`, `--version`, or the daemon
/// itself with its options, which the caller serves.
///
/// ```swift
/// exit(TransitiondCommand.run(arguments) { options throws(StartupError) in
///   try Daemon(options: options).run()
/// })
/// ```
public enum TransitiondCommand {
  /// `EX_USAGE` from sysexits.h.
  static let usageExitStatus: Int32 = 64

  /// Runs the command line `arguments` (without the program name).
  ///
  /// - Parameter serve: Runs the daemon with `options` (a config found in the installed layout
  ///   when none was named) until it stops; while it serves, an `exit()` from elsewhere is
  ///   logged and ends the process with status 70 (``UnexpectedExit``).
  /// - Returns: The exit status: 0, 64 for arguments that cannot be understood (one line on
  ///   standard error), or the ``StartupError``'s status (its message logged). `plugin-host`
  ///   never returns.
  public static func run(
    _ arguments: [String], serve: (DaemonOptions) throws(StartupError) -> Void
  ) -> Int32 {
    if arguments.first == "check-plugin" {
      return PluginCheckCommand.run(Array(arguments.dropFirst()))
    }
    // `transitiond plugin-host …`: this executable started by the daemon as its plugin host
    // (docs/plugins.md, "Isolation").
    if arguments.first == HostCommandLine.subcommand {
      runPluginHost(Array(arguments.dropFirst()))
    }
    let request: CommandLineRequest
    do {
      request = try parseCommandLine(arguments)
    } catch {
      try? writeAll(Array("transitiond: \(error.message)\n".utf8), to: 2, isSocket: false)
      return usageExitStatus
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
      UnexpectedExit.arm()
      defer { UnexpectedExit.disarm() }
      do {
        try serve(options)
      } catch {
        UnexpectedExit.disarm()
        StandardErrorLogSink().write(.error, error.message)
        return error.exitStatus
      }
    }
    return 0
  }
}
