/// The arguments of `transitiond plugin-host`, the daemon's own executable started as its
/// plugin host (docs/plugins.md, "Isolation"). Only the daemon starts it.
///
/// `plugin-host --fd 3 --parent PID [--uid U --gid G] --memory-bytes N --cpu-seconds N`
public enum HostCommandLine {
  /// The subcommand's name, the first argument.
  public static let subcommand = "plugin-host"

  /// The arguments after the executable's path.
  public static func arguments(for sandbox: HostSandbox) -> [String] {
    var arguments = [
      subcommand, "--fd", String(HostSandbox.channelDescriptor), "--parent",
      String(sandbox.parentPID),
    ]
    if let user = sandbox.user {
      arguments += ["--uid", String(user.uid), "--gid", String(user.gid)]
    }
    arguments += [
      "--memory-bytes", String(sandbox.memoryBytes), "--cpu-seconds", String(sandbox.cpuSeconds),
    ]
    return arguments
  }

  /// Reads the arguments after `plugin-host`.
  /// - Returns: the sandbox, or nil when an argument is missing, unknown or not a number.
  public static func parse(_ arguments: [String]) -> HostSandbox? {
    var values: [String: Int] = [:]
    var index = 0
    while index + 1 < arguments.count {
      let key = arguments[index]
      guard
        ["--fd", "--parent", "--uid", "--gid", "--memory-bytes", "--cpu-seconds"].contains(key),
        let value = Int(arguments[index + 1]), value >= 0
      else { return nil }
      values[key] = value
      index += 2
    }
    guard index == arguments.count, values["--fd"] == Int(HostSandbox.channelDescriptor),
      let parent = values["--parent"], let memory = values["--memory-bytes"],
      let cpu = values["--cpu-seconds"], parent <= Int(Int32.max)
    else { return nil }
    var user: (uid: UInt32, gid: UInt32)?
    switch (values["--uid"], values["--gid"]) {
    case (nil, nil): user = nil
    case (let uid?, let gid?) where uid <= Int(UInt32.max) && gid <= Int(UInt32.max):
      user = (UInt32(uid), UInt32(gid))
    default: return nil
    }
    return HostSandbox(
      parentPID: Int32(parent), user: user, memoryBytes: memory, cpuSeconds: cpu)
  }
}
