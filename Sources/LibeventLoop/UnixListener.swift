import CLibevent
import Glibc
import UnixDaemon
import UnixIO

/// Accepts clients on an AF_UNIX stream socket at a file system path (libevent's
/// `evconnlistener`), handing each over as a ``Connection``.
///
/// The listening socket and accepted sockets are non-blocking and close-on-exec. Missing
/// parent directories are created with mode 0700, and the socket's directory must belong to
/// the effective uid and be writable by it alone; the socket file gets the requested mode
/// before anyone can connect. Take a ``SocketLock`` on the path first: it removes a stale
/// socket file left by a killed process, which `bind` would otherwise refuse.
///
/// The listener keeps itself alive until ``close()``, which stops accepting and removes the
/// socket file.
///
/// When accepting fails because the process or system is out of descriptors or memory, the
/// listener pauses for ``acceptRetryDelay`` seconds instead of spinning, and tells
/// ``onAcceptError``.
public final class UnixListener {
  /// The loop accepted connections run on.
  public let loop: EventLoop
  /// The socket's path.
  public let path: String
  /// Called on the loop when `accept` fails (the listener keeps listening).
  public var onAcceptError: ((SystemError) -> Void)?
  /// Seconds to pause accepting after running out of descriptors or memory: 0.1.
  public static let acceptRetryDelay = 0.1

  private let onAccept: (Connection) -> Void
  private var listener: OpaquePointer?
  private var socketFile: FileIdentity?
  private var resumeTimer: LoopTimer?
  private var registration: Unmanaged<UnixListener>?

  /// Binds and listens at `path`.
  ///
  /// - Parameters:
  ///   - loop: The loop to accept on.
  ///   - path: The socket file's path (at most 107 bytes).
  ///   - mode: The socket file's permissions; default 0600 (owner only).
  ///   - backlog: The `listen` backlog.
  ///   - onAccept: Called on the loop with each new connection; set its callbacks here.
  /// - Throws: ``UnixSocketError`` for an unusable path, ``SystemError`` when a system call
  ///   fails (`EADDRINUSE` from `bind` when a socket file is already there).
  public init(
    loop: EventLoop, path: String, mode: mode_t = 0o600, backlog: Int32 = 128,
    onAccept: @escaping (Connection) -> Void
  ) throws {
    self.loop = loop
    self.path = path
    self.onAccept = onAccept
    let address = try UnixSocketAddress(socketPath: path)
    try SocketFiles.prepareDirectory(of: path)
    let descriptor = try retryingInterrupts("socket") {
      socket(
        AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    }
    var bound = false
    do {
      _ = try address.withSocketAddress { socketAddress, length throws(SystemError) in
        try retryingInterrupts("bind", path: path) { bind(descriptor, socketAddress, length) }
      }
      bound = true
      // Nobody can connect before listen(), so the mode is in place before the first client.
      try retryingInterrupts("chmod", path: path) { chmod(path, mode) }
      socketFile = SocketFiles.identity(of: path)
      try retryingInterrupts("listen", path: path) { listen(descriptor, backlog) }
    } catch {
      Glibc.close(descriptor)
      if bound { unlink(path) }
      throw error
    }
    try accept(on: descriptor, removingOnFailure: true)
  }

  /// Accepts on `descriptor`, a socket already bound and listening that someone else created
  /// (systemd's socket activation, ``SystemdListenFDs``): it is made non-blocking and
  /// close-on-exec, and ``close()`` closes it but never touches the socket file at `path`.
  ///
  /// - Parameter path: The socket's path, for log lines and errors.
  /// - Throws: ``SystemError`` when libevent cannot watch it.
  public init(
    loop: EventLoop, adoptingListeningSocket descriptor: Int32, path: String,
    onAccept: @escaping (Connection) -> Void
  ) throws {
    self.loop = loop
    self.path = path
    self.onAccept = onAccept
    let flags = fcntl(descriptor, F_GETFL)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    try accept(on: descriptor, removingOnFailure: false)
  }

  private func accept(on descriptor: Int32, removingOnFailure: Bool) throws {
    // Backlog 0: the socket is already listening.
    guard
      let listener = evconnlistener_new(
        loop.base,
        { _, descriptor, _, _, context in
          guard let context else {
            Glibc.close(descriptor)
            return
          }
          let listener = Unmanaged<UnixListener>.fromOpaque(context).takeUnretainedValue()
          withExtendedLifetime(listener) { listener.accepted(descriptor) }
        },
        Unmanaged.passUnretained(self).toOpaque(),
        UInt32(LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC), 0, descriptor)
    else {
      Glibc.close(descriptor)
      if removingOnFailure { unlink(path) }
      throw SystemError(errno: ENOMEM, function: "evconnlistener_new", path: path)
    }
    self.listener = listener
    evconnlistener_set_error_cb(listener) { _, context in
      guard let context else { return }
      let listener = Unmanaged<UnixListener>.fromOpaque(context).takeUnretainedValue()
      withExtendedLifetime(listener) { listener.acceptFailed(errno: clibevent_socket_error()) }
    }
    registration = Unmanaged.passRetained(self)
  }

  /// True until ``close()``.
  public var isListening: Bool { listener != nil }

  /// Stops accepting, closes the listening socket and removes the socket file (only if it
  /// is still the file this listener created). Connections already accepted stay open.
  /// Safe to call twice and from a callback.
  public func close() {
    resumeTimer?.cancel()
    resumeTimer = nil
    if let listener {
      evconnlistener_free(listener)
      self.listener = nil
      if let socketFile, let current = SocketFiles.identity(of: path),
        current.device == socketFile.device, current.inode == socketFile.inode
      {
        unlink(path)
      }
    }
    if let registration {
      self.registration = nil
      registration.release()
    }
  }

  private func accepted(_ descriptor: Int32) {
    guard listener != nil else {
      Glibc.close(descriptor)
      return
    }
    do {
      let connection = try Connection(loop: loop, adopting: descriptor)
      onAccept(connection)
    } catch {
      onAcceptError?(error)
    }
  }

  private func acceptFailed(errno code: Int32) {
    guard let listener else { return }
    if [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(code) {
      // The pending connection stays queued; retrying at once would spin.
      _ = evconnlistener_disable(listener)
      if resumeTimer == nil {
        resumeTimer = try? LoopTimer(loop: loop) { [weak self] in
          guard let self, let listener = self.listener else { return }
          _ = evconnlistener_enable(listener)
        }
      }
      resumeTimer?.schedule(after: Self.acceptRetryDelay)
    }
    onAcceptError?(SystemError(errno: code, function: "accept", path: path))
  }
}

@available(*, unavailable) extension UnixListener: Sendable {}
