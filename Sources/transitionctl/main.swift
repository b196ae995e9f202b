import Foundation
import Glibc

// A closed pipe on standard output is reported by write(2) as EPIPE instead of killing us.
signal(SIGPIPE, SIG_IGN)
exit(
  Transitionctl.main(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
