import Glibc

/// Starts `executable` (a path) with `posix_spawn`: `arguments` after its own path,
/// `environment` as its whole environment (in name order), every signal at its default and
/// none blocked, and the descriptor changes `fileActions` holds.
///
/// - Returns: The child's pid.
/// - Throws: ``SystemError`` of `posix_spawn`, with `executable` as its path.
public func spawnProcess(
  executable: String, arguments: [String], environment: [String: String],
  fileActions: inout posix_spawn_file_actions_t
) throws(SystemError) -> pid_t {
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var none = sigset_t()
  sigemptyset(&none)
  var all = sigset_t()
  sigfillset(&all)
  posix_spawnattr_setsigmask(&attributes, &none)
  posix_spawnattr_setsigdefault(&attributes, &all)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  var pid: pid_t = 0
  let status = withExecVectors(
    executable: executable, arguments: arguments, environment: environment
  ) { argv, envp in
    posix_spawn(&pid, executable, &fileActions, &attributes, argv, envp)
  }
  guard status == 0 else {
    throw SystemError(errno: status, function: "posix_spawn", path: executable)
  }
  return pid
}

/// Calls `body` with the C argument vector of `executable` run with `arguments` (its own path
/// first) and the C environment of `environment` (`NAME=value`, in name order), each ended by a
/// null pointer and valid during the call only.
public func withExecVectors<Result>(
  executable: String, arguments: [String], environment: [String: String],
  _ body: ([UnsafeMutablePointer<CChar>?], [UnsafeMutablePointer<CChar>?]) -> Result
) -> Result {
  let argv = ([executable] + arguments).map { strdup($0) } + [nil]
  let envp =
    environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for argument in argv { free(argument) }
    for variable in envp { free(variable) }
  }
  return body(argv, envp)
}

/// Waits for child `pid` to end (`waitpid`, again after a signal) and returns its wait status.
public func waitForChild(_ pid: pid_t) -> Int32 {
  var status: Int32 = 0
  while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  return status
}

/// The exit status in a wait status (`waitpid`'s), or nil when the child was killed by a signal.
public func exitStatus(ofWaitStatus waitStatus: Int32) -> Int32? {
  waitStatus & 0x7f == 0 ? (waitStatus >> 8) & 0xff : nil
}
