import FrameStreaming
import LibeventLoop
import TransitionServer

/// Adapts one accepted Unix-socket ``Connection`` to the core's ``Peer``: lines, drains,
/// overlong and unfinished lines and the end of the connection go to the ``ServerCore``; the
/// core's lines go into the connection's output batch, which leaves in one `write` once the
/// loop iteration's callbacks have run, unless the core holds it for a frame deadline
/// (``holdOutput()``) until ``flush()`` or ``flushNow()``; only what the kernel does not take
/// waits in the bufferevent (docs/architecture.md, "Transports").
final class UnixPeer: Peer, FrameOutput {
  let connection: Connection
  let identity: PeerIdentity?

  /// Wires `connection` to `core`, with the line and drain limits of `limits`.
  ///
  /// - Parameter onSocketClosed: Runs once the socket is closed, after any flush.
  init(
    connection: Connection, core: ServerCore, limits: ServerLimits,
    onSocketClosed: @escaping (UnixPeer) -> Void
  ) {
    self.connection = connection
    identity = connection.peerCredentials.map {
      PeerIdentity(pid: $0.pid, uid: $0.uid, gid: $0.gid)
    }
    connection.maximumLineLength = limits.maxLineBytes
    connection.writeLowWatermark = limits.drainedWatermarkBytes
    // The connection holds these closures until it ends; the peer holds the connection.
    connection.onLine = { [unowned core, unowned self] _, line in
      core.receive(line: line, from: self)
    }
    connection.onLineTooLong = { [unowned core, unowned self] _ in
      core.peerSentOverlongLine(self)
    }
    connection.partialLineTimeout = limits.partialLineSeconds
    connection.onPartialLineTimeout = { [unowned core, unowned self] connection in
      core.peerLeftLineUnfinished(self, seconds: connection.partialLineTimeout ?? 0)
    }
    connection.onDrained = { [unowned core, unowned self] _ in core.peerDrained(self) }
    connection.onClose = { [unowned core, unowned self] _, reason in
      switch reason {
      case .failed(let error): core.peerClosed(self, reason: "\(error)")
      case .local, .peerClosed: core.peerClosed(self)
      }
    }
    connection.onSocketClosed = { [self] _ in onSocketClosed(self) }
  }

  var id: UInt64 { connection.id }
  var isOpen: Bool { connection.isOpen }
  var pendingOutputBytes: Int { connection.pendingOutputBytes }

  @discardableResult
  func send(_ bytes: [UInt8]) -> Bool { connection.write(bytes) }

  @discardableResult
  func send(_ bytes: UnsafeRawBufferPointer) -> Bool { connection.write(bytes) }

  func flushNow() { connection.flushNow() }

  func holdOutput() { connection.holdOutput() }

  func flush() { connection.flush() }

  var isHoldingOutput: Bool { connection.isHoldingOutput }

  func close() { connection.close() }

  func closeAfterFlush() { connection.closeAfterFlush() }
}

@available(*, unavailable) extension UnixPeer: Sendable {}
