import Glibc

/// Writes all of `bytes` to `descriptor`, retrying `EINTR` and short writes: the one write loop
/// of the project's blocking writers (client, CLI output, benchmark, tests).
///
/// Sockets are written with `send(MSG_NOSIGNAL)`, so a peer that has gone yields `EPIPE`
/// rather than `SIGPIPE`; other descriptors (pipes, files) with `write`.
/// - Throws: the failing call (`send` or `write`) with its `errno`.
public func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32, isSocket: Bool)
  throws(SystemError)
{
  guard let base = bytes.baseAddress else { return }
  var offset = 0
  while offset < bytes.count {
    let written =
      isSocket
      ? send(descriptor, base + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      : write(descriptor, base + offset, bytes.count - offset)
    if written < 0 {
      let code = errno
      if code == EINTR { continue }
      throw SystemError(errno: code, function: isSocket ? "send" : "write")
    }
    offset += written
  }
}

/// Writes all of `bytes` (see ``writeAll(_:to:isSocket:)``).
public func writeAll(_ bytes: [UInt8], to descriptor: Int32, isSocket: Bool)
  throws(SystemError)
{
  var failure: SystemError?
  bytes.withUnsafeBytes { raw in
    do throws(SystemError) {
      try writeAll(raw, to: descriptor, isSocket: isSocket)
    } catch {
      failure = error
    }
  }
  if let failure { throw failure }
}
