import CProcessControl
import Glibc
import PluginHost
import PluginLoader
import PluginValues
import UnixIO

/// The plugin host's side of the protocol: the one loop of `transitiond plugin-host`.
///
/// It reads the daemon's messages from its socket one at a time and answers each before reading
/// the next: a `file` brings one open file for the next scan (its descriptor, `SCM_RIGHTS`), a
/// `scan` loads the files brought since the last one (announcing each library with a `loading`
/// message before opening it, then one `scanned` report) and closes them, a `timeline` calls
/// the animator and sends its answer. It reaches no path itself: what it loads is what the
/// daemon opened. It exits when the daemon closes the socket (and the kernel kills it if the daemon
/// dies first). Plugins run on this thread only.
public struct PluginHostService {
  /// The largest request the host reads: a scan or a context (the daemon's own contexts are
  /// bounded far lower, by `limits.maxLineBytes`).
  public static let maximumRequestBytes = 64 << 20

  let descriptor: Int32
  private var reader = HostMessageReader(payloadLimits: [
    .scan: 4 << 20, .timeline: PluginHostService.maximumRequestBytes, .file: 0,
  ])
  private var registry: PluginRegistry?
  /// Descriptors received and not yet taken by a `file` message, in arrival order.
  private var received: [Int32] = []
  /// The files brought by `file` messages since the last scan, in order.
  private var brought: [Int32] = []

  public init(descriptor: Int32) {
    self.descriptor = descriptor
  }

  /// Serves until the daemon closes the socket; returns the exit status.
  public mutating func run() -> Int32 {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    var descriptors = [Int32](repeating: -1, count: 16)
    while true {
      var taken = 0
      let count = process_control_receive_with_descriptors(
        descriptor, &buffer, buffer.count, &descriptors, descriptors.count, &taken)
      if count == 0 { return 0 }
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EMSGSIZE {
          Self.complain("the daemon passed more descriptors than a read takes")
          return 70
        }
        return 0
      }
      received += descriptors.prefix(taken)
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
    case .file:
      // The descriptor came with the message's first byte, so it has arrived by now.
      guard !received.isEmpty else {
        Self.complain("a file message came without a descriptor")
        return false
      }
      brought.append(received.removeFirst())
      return true
    case .scan:
      let files = brought
      brought = []
      guard let scanned = scan(message, files: files) else { return false }
      return Self.send(
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

  /// Loads the files a `scan` lists (each library announced by a `loading` message first) and
  /// closes them all before its report is sent, so that a host that has reported holds no
  /// descriptor but its socket; nil when the request is unreadable or the daemon is gone.
  private mutating func scan(_ message: HostMessage, files: [Int32]) -> ScanReport? {
    defer { for file in files { close(file) } }
    let request: ScanRequest
    do {
      request = try ScanRequest(payload: message.payload)
    } catch {
      Self.complain("unreadable scan request: \(error.message)")
      return nil
    }
    guard request.handedOver == files.count else {
      Self.complain(
        "the scan lists \(request.handedOver) files but \(files.count) were handed over")
      return nil
    }
    var scan = ScanFiles(files: request.files)
    var next = files.makeIterator()
    for index in scan.files.indices where scan.files[index].refusal == nil {
      scan.files[index].descriptor = next.next() ?? -1
    }
    let registry =
      self.registry
      ?? PluginRegistry(
        configuration: PluginRegistry.Configuration(
          searchPath: PluginSearchPath(configured: [], executableDirectory: nil)))
    self.registry = registry
    let descriptor = self.descriptor
    var sent = true
    let report = registry.rescan(files: scan) { index in
      var payload: [UInt8] = []
      HostMessage.append(UInt32(index), to: &payload)
      sent = sent && Self.send(HostMessage(.loading, payload: payload), on: descriptor)
    }
    guard sent else { return nil }
    return ScanReport(animators: registry.animators, diagnostics: report.diagnostics)
  }

  static func answer(_ result: PluginTimelineResult, call: UInt32) -> HostMessage {
    switch result {
    case .timeline(let bytes):
      return HostMessage(
        .answer, status: HostMessage.Status.timeline.rawValue, call: call, payload: bytes)
    case .binaryTimeline(let bytes):
      return HostMessage(
        .answer, status: HostMessage.Status.binaryTimeline.rawValue, call: call, payload: bytes)
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
    (try? writeAll(message.encoded, to: descriptor, isSocket: true)) != nil
  }

  /// One line on standard error (the daemon's log), prefixed with the host's name.
  public static func complain(_ message: String) {
    let line = Array("transitiond plugin-host[\(getpid())]: \(message)\n".utf8)
    _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }
}
