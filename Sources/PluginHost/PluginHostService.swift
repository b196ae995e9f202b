import Glibc
import PluginLoader
import PluginValues

/// The plugin host's side of the protocol: the one loop of `transitiond plugin-host`.
///
/// It reads the daemon's messages from its socket one at a time and answers each before reading
/// the next: a `scan` loads plugins (announcing each library with a `loading` message before
/// opening it, then one `scanned` report), a `timeline` calls the animator and sends its
/// answer. It exits when the daemon closes the socket (and the kernel kills it if the daemon
/// dies first). Plugins run on this thread only.
public struct PluginHostService {
  /// The largest request the host reads: a scan or a context (the daemon's own contexts are
  /// bounded far lower, by `limits.maxLineBytes`).
  public static let maximumRequestBytes = 64 << 20

  let descriptor: Int32
  private var reader = HostMessageReader(payloadLimits: [
    .scan: 1 << 20, .timeline: PluginHostService.maximumRequestBytes,
  ])
  private var registry: PluginRegistry?

  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Serves until the daemon closes the socket; returns the exit status.
  public mutating func run() -> Int32 {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = read(descriptor, &buffer, buffer.count)
      if count == 0 { return 0 }
      if count < 0 {
        if errno == EINTR { continue }
        return 0
      }
      reader.append(buffer[..<count])
      do {
        while let message = try reader.next() {
          guard handle(message) else { return 0 }
        }
      } catch {
        Self.complain("unreadable request from the daemon: \(error)")
        return 70
      }
    }
  }

  /// Handles one request; false when the socket is gone.
  private mutating func handle(_ message: HostMessage) -> Bool {
    switch message.kind {
    case .scan:
      let request: ScanRequest
      do {
        request = try ScanRequest(payload: message.payload)
      } catch {
        Self.complain("unreadable scan request: \(error.message)")
        return false
      }
      let registry = self.registry ?? PluginRegistry(configuration: request.configuration)
      self.registry = registry
      let descriptor = self.descriptor
      var sent = true
      let report = registry.rescan(with: request.configuration, skipping: Set(request.skip)) {
        path in
        sent = sent && Self.send(HostMessage(.loading, payload: Array(path.utf8)), on: descriptor)
      }
      let scanned = ScanReport(animators: registry.animators, diagnostics: report.diagnostics)
      return sent
        && Self.send(
          HostMessage(.scanned, call: message.call, payload: scanned.payload), on: descriptor)
    case .timeline:
      let answer: HostMessage
      if let call = TimelineCall(payload: message.payload), let registry {
        answer = Self.answer(
          registry.makeTimeline(animator: call.animator, contextJSON: call.contextJSON),
          call: message.call)
      } else {
        answer = HostMessage(
          .answer, status: HostMessage.Status.failed.rawValue, call: message.call,
          payload: Array("the plugin host got an unreadable call".utf8))
      }
      return Self.send(answer, on: descriptor)
    case .loading, .scanned, .answer:
      Self.complain("the daemon sent a \(message.kind) message")
      return false
    }
  }

  static func answer(_ result: PluginTimelineResult, call: UInt32) -> HostMessage {
    switch result {
    case .timeline(let bytes):
      return HostMessage(
        .answer, status: HostMessage.Status.timeline.rawValue, call: call, payload: bytes)
    case .declined:
      return HostMessage(.answer, status: HostMessage.Status.declined.rawValue, call: call)
    case .failed(let message), .faulted(_, let message):
      return HostMessage(
        .answer, status: HostMessage.Status.failed.rawValue, call: call,
        payload: Array(message.utf8))
    }
  }

  /// Writes a whole message; false when the daemon is gone.
  static func send(_ message: HostMessage, on descriptor: Int32) -> Bool {
    let bytes = message.encoded
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return false }
      written += count
    }
    return true
  }

  /// One line on standard error (the daemon's log), prefixed with the host's name.
  public static func complain(_ message: String) {
    let line = Array("transitiond plugin-host[\(getpid())]: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }
}
