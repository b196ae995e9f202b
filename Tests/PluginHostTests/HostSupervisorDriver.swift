import PluginHost
import PluginLoader
import PluginValues
import TransitionKit

/// A clock advanced by hand, CPU samples chosen by the test, and scan files that need not
/// exist: the world of a ``HostSupervisor`` under test.
final class FakeSupervisorEnvironment: HostSupervisorEnvironment {
  var now = 100.0
  var samples: [ProcessCPUSample] = []
  var files = ScanFiles(
    files: [
      ScanFiles.File(kind: .library, path: "/plugins/libFade.so", descriptor: 40),
      ScanFiles.File(kind: .library, path: "/plugins/libTurn.so", descriptor: 41),
      ScanFiles.File(kind: .data, path: "/animators/slide.json", name: "slide", descriptor: 42),
      ScanFiles.File(
        kind: .data, path: "/animators/open.json", name: "open", descriptor: -1,
        refusal: "refused: writable by others"),
    ],
    diagnostics: [
      PluginDiagnostic(.missingPath, .warning, path: "/nowhere", "plugin path /nowhere is gone")
    ])
  /// The quarantined libraries each scan skipped, in order.
  var skipped: [Set<String>] = []

  func cpuSample(pid: Int32) -> ProcessCPUSample? {
    samples.isEmpty ? nil : samples.removeFirst()
  }

  func scanFiles(_ configuration: PluginRegistry.Configuration, skipping: Set<String>)
    -> ScanFiles
  {
    skipped.append(skipping)
    var scan = files
    scan.files.removeAll { skipping.contains($0.path) }
    return scan
  }
}

/// A ``HostSupervisor`` with its fake world, and the bytes a host would send.
struct HostSupervisorDriver {
  static let settings = HostSupervisor.Settings(
    registry: PluginRegistry.Configuration(
      searchPath: PluginSearchPath(configured: [], executableDirectory: nil)),
    callTimeout: 0.25, loadTimeout: 1, maxTimelineBytes: 1000, initialBackoff: 0.1,
    maximumBackoff: 1, quarantineStrikes: 2)

  let environment = FakeSupervisorEnvironment()
  var machine: HostSupervisor
  var nextTicket: HostSupervisor.Ticket = 0

  init(settings: HostSupervisor.Settings = Self.settings) {
    machine = HostSupervisor(settings: settings, environment: environment)
  }

  /// The animators the fake host reports: one a library.
  static let animators = [
    RegisteredAnimator(
      name: "fade", operations: [.present], defaultDuration: 0.3, pluginName: "fade",
      pluginVersion: "1", libraryPath: "/plugins/libFade.so"),
    RegisteredAnimator(
      name: "turn", operations: [.push], defaultDuration: 0.5, pluginName: "turn",
      pluginVersion: "1", libraryPath: "/plugins/libTurn.so"),
    RegisteredAnimator(
      name: "slide", operations: [.push], defaultDuration: 0.35, pluginName: "data",
      pluginVersion: "", libraryPath: "/animators/slide.json", kind: .data),
  ]

  mutating func handle(_ event: HostSupervisor.Event) -> [HostSupervisor.Effect] {
    machine.handle(event)
  }

  /// Bytes the host writes.
  mutating func host(_ messages: HostMessage...) -> [HostSupervisor.Effect] {
    machine.handle(.received(messages.flatMap(\.encoded)))
  }

  /// Starts the host (pid `pid`): its first scan is at the host.
  mutating func startScanning(pid: Int32 = 7) {
    _ = handle(.start)
    _ = handle(.hostStarted(pid: pid))
  }

  /// Starts the host (pid `pid`) and answers its scan with ``animators``.
  mutating func startAndScan(pid: Int32 = 7) {
    startScanning(pid: pid)
    _ = host(Self.scanned(Self.animators))
  }

  /// A `scanned` message listing `animators`.
  static func scanned(_ animators: [RegisteredAnimator], diagnostics: [PluginDiagnostic] = [])
    -> HostMessage
  {
    HostMessage(
      .scanned,
      payload: ScanReport(animators: animators, diagnostics: diagnostics).payload)
  }

  /// A `loading` message for the scan's file `index`.
  static func loading(_ index: UInt32) -> HostMessage {
    HostMessage(
      .loading,
      payload: [
        UInt8(index >> 24), UInt8(index >> 16 & 0xff), UInt8(index >> 8 & 0xff),
        UInt8(index & 0xff),
      ])
  }

  /// An answer with a timeline to call `call`.
  static func timeline(_ call: UInt32, _ json: String = #"{"duration":1}"#) -> HostMessage {
    HostMessage(
      .answer, status: HostMessage.Status.timeline.rawValue, call: call, payload: Array(json.utf8))
  }

  /// Asks for a timeline of `animator`; returns the ticket and the effects.
  mutating func call(_ animator: String) -> (HostSupervisor.Ticket, [HostSupervisor.Effect]) {
    nextTicket += 1
    return (
      nextTicket,
      handle(.makeTimeline(nextTicket, animator: animator, contextJSON: Array("{}".utf8)))
    )
  }

  /// The messages of the `send` effects, decoded, with the descriptors they pass.
  static func sent(_ effects: [HostSupervisor.Effect]) -> [(HostMessage, Int32?)] {
    var sent: [(HostMessage, Int32?)] = []
    for case .send(let bytes, let descriptor) in effects {
      var reader = HostMessageReader(
        payloadLimits: [.scan: 1 << 20, .timeline: 1 << 20, .file: 0])
      reader.append(bytes)
      if let message = try? reader.next() { sent.append((message, descriptor)) }
    }
    return sent
  }

  /// The answers in `effects`, by ticket.
  static func answers(_ effects: [HostSupervisor.Effect]) -> [(
    HostSupervisor.Ticket, PluginTimelineResult
  )] {
    var answers: [(HostSupervisor.Ticket, PluginTimelineResult)] = []
    for case .answer(let ticket, let result) in effects { answers.append((ticket, result)) }
    return answers
  }

  /// The log lines in `effects`.
  static func logs(_ effects: [HostSupervisor.Effect]) -> [String] {
    var lines: [String] = []
    for case .log(_, let line) in effects { lines.append(line) }
    return lines
  }
}
