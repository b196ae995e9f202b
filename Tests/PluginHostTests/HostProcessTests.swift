import Glibc
import PluginHost
import Testing

/// `HostProcess.spawn`: the child gets the socketpair's other end as descriptor 3, no signal
/// blocked or ignored whatever the daemon's own are, only the environment given; an executable
/// that cannot run is refused before the fork, and one whose `execve` fails exits with 127.
@Suite("plugin host process", .serialized)
struct HostProcessTests {
  /// Everything the child writes to descriptor 3, until it closes it.
  func output(of process: HostProcess) -> String {
    var text: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var poller = pollfd(fd: process.descriptor, events: Int16(POLLIN), revents: 0)
    while poll(&poller, 1, 10_000) > 0 {
      let count = read(process.descriptor, &buffer, buffer.count)
      if count <= 0 { break }
      text += buffer[..<count]
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The child's exit status, reaped.
  func status(of process: HostProcess) -> Int32 {
    var status: Int32 = 0
    while waitpid(process.pid, &status, 0) < 0 && errno == EINTR {}
    close(process.descriptor)
    if process.exitDescriptor >= 0 { close(process.exitDescriptor) }
    return status
  }

  @Test("the child has descriptor 3, its signals at their defaults, the environment given")
  func childState() throws {
    // The daemon ignores SIGPIPE; block SIGUSR1 and ignore SIGHUP here too, as a plugin of an
    // old daemon or a parent might: none of it reaches the child.
    let previousPipe = signal(SIGPIPE, SIG_IGN)
    let previousHangUp = signal(SIGHUP, SIG_IGN)
    var blocked = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGUSR1)
    var previousMask = sigset_t()
    pthread_sigmask(SIG_BLOCK, &blocked, &previousMask)
    defer {
      pthread_sigmask(SIG_SETMASK, &previousMask, nil)
      signal(SIGPIPE, previousPipe)
      signal(SIGHUP, previousHangUp)
    }
    var maskBefore = sigset_t()
    pthread_sigmask(SIG_SETMASK, nil, &maskBefore)
    let process = try HostProcess.spawn(
      executable: "/bin/sh",
      arguments: [
        "-c", "grep -E '^Sig(Blk|Ign):' /proc/self/status >&3; echo \"[$ONLY]\" >&3; env >&3",
      ],
      environment: ["ONLY": "this"])
    let text = output(of: process)
    #expect(status(of: process) == 0)
    #expect(text.contains("SigBlk:\t0000000000000000"), "\(text)")
    // Bit n - 1 stands for signal n. The C library's own signals (32 and 33, which no
    // program's sigaction may touch) keep whatever the test runner gave them.
    let ignored = text.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }
      .flatMap { UInt64($0.dropFirst("SigIgn:".count).trimmingPrefix("\t"), radix: 16) }
    #expect(ignored.map { $0 & 0xFFFF_FFFF_7FFF_FFFF & ~(1 << 32) } == 0, "\(text)")
    #expect(text.contains("[this]"), "\(text)")
    #expect(!text.contains("PATH=/usr"), "the daemon's environment leaked: \(text)")
    // The daemon's own mask and dispositions are as they were.
    var mask = sigset_t()
    pthread_sigmask(SIG_SETMASK, nil, &mask)
    for number in 1..<Int32(65) {
      #expect(sigismember(&mask, number) == sigismember(&maskBefore, number), "signal \(number)")
    }
    #expect(sigismember(&mask, SIGUSR1) == 1)
  }

  @Test("an executable that cannot run is refused with its reason, nothing left open")
  func missingExecutable() throws {
    let before = openDescriptors()
    #expect {
      _ = try HostProcess.spawn(
        executable: "/nonexistent/transitiond", arguments: [], environment: [:])
    } throws: { error in
      "\(error)" == "cannot start /nonexistent/transitiond: No such file or directory"
    }
    #expect(openDescriptors() == before)
  }

  @Test("a child whose execve fails exits with status 127")
  func failedExec() throws {
    // Executable, so it passes the check, but no format the kernel runs.
    let path = "/tmp/host-process-test-\(getpid())"
    let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o700)
    #expect(file >= 0)
    _ = write(file, "\u{7f}ELF not really", 15)
    close(file)
    defer { unlink(path) }
    var maskBefore = sigset_t()
    pthread_sigmask(SIG_SETMASK, nil, &maskBefore)
    let process = try HostProcess.spawn(executable: path, arguments: [], environment: [:])
    let status = status(of: process)
    #expect(status & 0x7f == 0 && (status >> 8) & 0xff == 127, "status \(status)")
  }

  /// How many descriptors this process has open.
  func openDescriptors() -> Int {
    guard let directory = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(directory) }
    var count = 0
    while readdir(directory) != nil { count += 1 }
    return count
  }
}
