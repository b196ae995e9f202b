import DaemonSupport
import Glibc

// The command line, the config and everything else the daemon needs beside its loop are
// DaemonSupport's (docs/architecture.md, "The daemon"); the daemon itself is this executable.
exit(
  TransitiondCommand.run(Array(CommandLine.arguments.dropFirst())) {
    options throws(StartupError) in
    try Daemon(options: options).run()
  })
