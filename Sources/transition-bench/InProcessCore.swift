import FrameStreaming
import PluginLoader
import PluginValues
import TransitionServer

/// What the in-process stages need to drive a ``ServerCore`` through its public API, without
/// the daemon's loop or sockets: a clock that stands still, a peer that keeps its output in
/// memory, the animators of a registry, and a log that goes nowhere.
enum InProcessCore {
  /// A ``ServerClock`` at one instant whose timers are kept and never fire: the stage's own
  /// requests are what moves its sessions.
  final class StillClock: ServerClock {
    let now: Double
    let timerSlack = 0.0
    private var timers: [StillTimer] = []

    init(now: Double) { self.now = now }

    var scheduledTimerCount: Int { timers.filter(\.isScheduled).count }

    func makeTimer(_ fire: @escaping () -> Void) -> any ServerTimer {
      let timer = StillTimer()
      timers.append(timer)
      return timer
    }

    func yieldProcessor() {}
  }

  /// A timer of a ``StillClock``: scheduled or not, never fired.
  final class StillTimer: ServerTimer {
    private(set) var isScheduled = false
    func schedule(at deadline: Double) { isScheduled = true }
    func cancel() { isScheduled = false }
  }

  /// A ``Peer`` that counts what it is sent and drops it on request; it never holds output.
  final class MemoryPeer: Peer, FrameOutput {
    let id: UInt64
    let identity: PeerIdentity?
    private(set) var isOpen = true
    /// The bytes sent since the last ``dropUnread()``.
    private(set) var pendingOutputBytes = 0

    init(id: UInt64, identity: PeerIdentity?) {
      self.id = id
      self.identity = identity
    }

    func send(_ bytes: [UInt8]) -> Bool {
      guard isOpen else { return false }
      pendingOutputBytes += bytes.count
      return true
    }

    func send(_ bytes: UnsafeRawBufferPointer) -> Bool {
      guard isOpen else { return false }
      pendingOutputBytes += bytes.count
      return true
    }

    func close() { isOpen = false }
    func closeAfterFlush() { isOpen = false }

    /// Forgets what was sent.
    func dropUnread() { pendingOutputBytes = 0 }
  }

  /// The animators of a registry loaded in this process, answering at once.
  final class RegistryAnimators: AnimatorSource {
    private let registry: PluginRegistry

    init(_ registry: PluginRegistry) { self.registry = registry }

    var animators: [RegisteredAnimator] { registry.animators }

    func animator(named name: String) -> RegisteredAnimator? { registry.animator(named: name) }

    func makeTimeline(
      animator name: String, contextJSON: [UInt8],
      completion: @escaping (PluginTimelineResult) -> Void
    ) {
      completion(registry.makeTimeline(animator: name, contextJSON: contextJSON))
    }
  }

  /// A ``LogSink`` that drops every entry.
  final class DiscardedLog: LogSink {
    func write(_ entry: LogEntry) {}
  }
}
