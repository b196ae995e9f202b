/// The frame clock of one frame rate, as a display's vsync: every wall-clock stream at that
/// rate ticks on one shared, drift-free grid (docs/architecture.md, "The frame clock").
///
/// Deadline k is `origin + k / fps`, computed from k, never as "last fire + interval", so the
/// grid does not drift; when the loop falls behind, missed deadlines are skipped rather than
/// fired in a burst. Each tick first lets every due stream's session reach the tick's time
/// (which may complete it: its streams then send their final frames and leave), then renders
/// each stream still due once, at the deadline's time. The clock's timer runs only while it has
/// streams.
final class FrameClock {
  let fps: Double
  /// The time of deadline 0.
  let origin: Double
  private let clock: ServerClock
  private var timer: (any ServerTimer)?
  /// The grid index of the scheduled deadline.
  private var scheduledIndex = 0
  private(set) var streams: [FrameStream] = []

  init(fps: Double, clock: ServerClock) {
    self.fps = fps
    self.clock = clock
    origin = clock.now
  }

  /// The time of grid deadline `index`.
  func deadline(_ index: Int) -> Double {
    origin + Double(index) / fps
  }

  /// Whether `stream` ticks on this clock.
  func contains(_ stream: FrameStream) -> Bool {
    stream.isOnFrameClock && streams.contains { $0 === stream }
  }

  /// Adds `stream` to the ticks, from the next grid deadline on.
  func add(_ stream: FrameStream) {
    guard !stream.isOnFrameClock else { return }
    stream.isOnFrameClock = true
    streams.append(stream)
    guard timer?.isScheduled != true else { return }
    schedule(after: clock.now, notBefore: scheduledIndex + 1)
  }

  /// Takes `stream` out of the ticks; the last one leaving stops the timer.
  func remove(_ stream: FrameStream) {
    guard stream.isOnFrameClock else { return }
    stream.isOnFrameClock = false
    streams.removeAll { $0 === stream }
    if streams.isEmpty { timer?.cancel() }
  }

  /// Schedules the first grid deadline after `now`, and not before index `minimum`.
  private func schedule(after now: Double, notBefore minimum: Int) {
    let elapsed = ((now - origin) * fps).rounded(.down)
    var index = max(minimum, elapsed < 0 ? 0 : Int(min(elapsed, 1e15)) + 1)
    // Rounding may leave the computed deadline at or before `now`.
    while deadline(index) <= now { index += 1 }
    scheduledIndex = index
    if timer == nil { timer = clock.makeTimer { [weak self] in self?.tick() } }
    timer?.schedule(at: deadline(index))
  }

  /// The grid deadline a tick at `now` shows: the latest deadline at or before `now`, and
  /// never one before the deadline the timer was set for (a timer that fires a hair early
  /// still shows its own deadline).
  func tickTime(at now: Double) -> (index: Int, time: Double) {
    let elapsed = ((now - origin) * fps).rounded(.down)
    var index = max(scheduledIndex, elapsed < 0 ? 0 : Int(min(elapsed, 1e15)))
    // Rounding may leave the computed deadline just after `now`.
    while index > scheduledIndex, deadline(index) > now { index -= 1 }
    return (index, deadline(index))
  }

  /// One tick: every due stream's session reaches `now` (completing some), then each stream
  /// still on the clock and not yet at this deadline renders the deadline's frame, once. The
  /// frames show the grid time, not the moment the timer happened to fire, so a frame's `t`
  /// lies on the grid and the animation shows no timer jitter.
  private func tick() {
    let now = clock.now
    let (index, time) = tickTime(at: now)
    scheduledIndex = index
    let due = streams
    for stream in due { stream.session.advance(to: now) }
    for stream in due where stream.isOnFrameClock {
      // A stream that rendered at or after this deadline (it joined, or its session changed,
      // after the deadline passed) waits for the next one.
      if let last = stream.lastFrameTime, last >= time { continue }
      stream.tick(at: time)
    }
    guard !streams.isEmpty else { return }
    schedule(after: now, notBefore: scheduledIndex + 1)
  }
}

@available(*, unavailable) extension FrameClock: Sendable {}
