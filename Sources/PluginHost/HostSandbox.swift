import CProcessControl
import Glibc

/// What the plugin host does to its own process before it reads a byte or loads a plugin
/// (docs/security.md, "The plugin host"): signals back to their defaults, death with its
/// parent, no inherited descriptors, an unprivileged user when started as root, no new
/// privileges, and memory and CPU limits.
public struct HostSandbox: Equatable, Sendable {
  /// The descriptor every plugin host talks on: the one after standard error.
  public static let channelDescriptor: Int32 = 3

  /// The daemon's pid: the host exits at once if its parent is already another process.
  public var parentPID: Int32
  /// The user and group to become (`pluginUser`), or nil to keep the daemon's (the daemon
  /// does not run as root).
  public var user: (uid: UInt32, gid: UInt32)?
  /// `RLIMIT_AS` in bytes (`limits.pluginMemoryBytes`).
  public var memoryBytes: Int
  /// `RLIMIT_CPU` in seconds (`limits.pluginCPUSeconds`), the host's whole life.
  public var cpuSeconds: Int

  public init(
    parentPID: Int32, user: (uid: UInt32, gid: UInt32)?, memoryBytes: Int, cpuSeconds: Int
  ) {
    self.parentPID = parentPID
    self.user = user
    self.memoryBytes = memoryBytes
    self.cpuSeconds = cpuSeconds
  }

  public static func == (lhs: HostSandbox, rhs: HostSandbox) -> Bool {
    lhs.parentPID == rhs.parentPID && lhs.user?.uid == rhs.user?.uid
      && lhs.user?.gid == rhs.user?.gid && lhs.memoryBytes == rhs.memoryBytes
      && lhs.cpuSeconds == rhs.cpuSeconds
  }

  /// A step of ``apply()`` that failed: the host must not go on.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ step: String, errno code: Int32? = nil) {
      description = code.map { "\(step): \(String(cString: strerror($0))) (errno \($0))" } ?? step
    }
  }

  /// Applies every restriction, in this order: signals, parent death, descriptors, user,
  /// no-new-privileges, limits. Each step is checked.
  /// - Throws: ``Failure`` naming the step that failed.
  public func apply() throws(Failure) {
    // A plugin of the old daemon may have blocked or caught signals; the daemon's fork reset
    // them before execve, and this makes sure whatever starts the host.
    guard process_control_reset_signals() == 0 else {
      throw Failure("cannot reset the signal mask", errno: errno)
    }
    // SIGKILL, which no plugin can block or catch, when the daemon dies.
    guard process_control_set_parent_death_signal(SIGKILL) == 0 else {
      throw Failure("cannot set the parent death signal", errno: errno)
    }
    guard getppid() == parentPID else {
      throw Failure("the daemon (pid \(parentPID)) is gone")
    }
    guard process_control_close_descriptors_from(Self.channelDescriptor + 1) == 0 else {
      throw Failure("cannot close inherited descriptors", errno: errno)
    }
    if let user { try Self.become(uid: user.uid, gid: user.gid) }
    guard process_control_set_no_new_privileges() == 0,
      process_control_no_new_privileges() == 1
    else {
      throw Failure("cannot set no-new-privileges", errno: errno)
    }
    #if !SANITIZED
      try Self.limit(RLIMIT_AS, to: memoryBytes, "RLIMIT_AS")
    #else
      // `make sanitize` builds with -DSANITIZED: AddressSanitizer and ThreadSanitizer reserve
      // terabytes of shadow address space, which no address-space limit leaves room for
      // (docs/security.md, "Sanitizers"). Only those builds run without this limit.
    #endif
    // The soft limit sends SIGXCPU (the host dies and is restarted); the hard one SIGKILL.
    try Self.limit(RLIMIT_CPU, to: cpuSeconds, hard: cpuSeconds + 5, "RLIMIT_CPU")
  }

  /// Drops root for `uid`/`gid`: supplementary groups first (only root may set them), then the
  /// group, then the user; then checks that every id changed and that root cannot come back.
  static func become(uid: UInt32, gid: UInt32) throws(Failure) {
    guard geteuid() == 0 else { throw Failure("only root can become uid \(uid)") }
    var groups = [gid_t(gid)]
    guard setgroups(1, &groups) == 0 else { throw Failure("setgroups", errno: errno) }
    guard setgid(gid_t(gid)) == 0 else { throw Failure("setgid(\(gid))", errno: errno) }
    guard setuid(uid_t(uid)) == 0 else { throw Failure("setuid(\(uid))", errno: errno) }
    guard getuid() == uid, geteuid() == uid, getgid() == gid, getegid() == gid else {
      throw Failure("the user and group ids did not all change to \(uid):\(gid)")
    }
    var current = [gid_t](repeating: 0, count: 64)
    let count = getgroups(Int32(current.count), &current)
    guard count >= 0, current.prefix(Int(count)).allSatisfy({ $0 == gid }) else {
      throw Failure("supplementary groups other than \(gid) remain")
    }
    if uid != 0 {
      guard setuid(0) != 0, seteuid(0) != 0 else { throw Failure("root can still be regained") }
    }
  }

  private static func limit(
    _ resource: __rlimit_resource, to value: Int, hard: Int? = nil, _ name: String
  ) throws(Failure) {
    var limit = rlimit(rlim_cur: rlim_t(value), rlim_max: rlim_t(hard ?? value))
    guard setrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0 else {
      throw Failure("setrlimit(\(name), \(value))", errno: errno)
    }
  }
}
