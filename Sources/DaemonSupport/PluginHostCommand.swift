import Glibc
import PluginHost
import PluginHostChild

/// `transitiond plugin-host`: sandboxes this process, then serves the daemon on descriptor 3
/// until the daemon closes it. Exits 64 on bad arguments, 71 when the sandbox cannot be set
/// up (nothing is loaded then).
func runPluginHost(_ arguments: [String]) -> Never {
  guard let sandbox = HostCommandLine.parse(arguments) else {
    PluginHostService.complain(
      "usage: transitiond plugin-host --fd 3 --parent PID [--uid U --gid G] "
        + "--memory-bytes N --cpu-seconds N (started by transitiond only)")
    exit(64)
  }
  do {
    try sandbox.apply()
  } catch {
    PluginHostService.complain("cannot set up the sandbox: \(error)")
    exit(71)
  }
  var service = PluginHostService(descriptor: HostSandbox.channelDescriptor)
  exit(service.run())
}
