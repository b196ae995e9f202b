/// The frame clock of one frame rate, as a display's vsync: every wall-clock stream at that
/// rate ticks on one shared, drift-free grid (docs/architecture.md, "The frame clock").
///
/// Deadline k is `origin + k / fps`, computed from k, never as "last fire + interval", so the
/// grid does not drift; when the loop falls behind, missed deadlines are skipped rather than
/// fired in a burst.
///
/// A tick is rendered ahead of its deadline and shown at it, as a display pipelines its
/// frames: rendering starts ``RenderLead`` seconds before the deadline (the recent render
/// time with room to spare), every subscriber's output is held (``FramePresenter``), and all of it
/// is released when the deadline comes; a render that finishes late releases at once. A
/// render runs in slices of at most ``sliceSeconds``, and the loop serves its other events
/// between them, so a request never waits for a whole tick; each slice after the first begins
/// by yielding the processor (``ServerClock/yieldProcessor()``), so that a client woken by a
/// reply in between runs before the render goes on. Each due stream renders the
/// deadline's frame once; a stream whose session ends by the deadline renders none (the
/// session's own timer completes it at its end, and its final frame and `complete` leave
/// then). While several uids stream, each tick renders the streams of a uid only when the uid
/// has render time left in its share (``RenderShares``), and charges it what they took. The
/// clock's timers run only while it has streams (and until the last held frames are
/// released).
///
/// A display-paced clock (``FramePacing/display(_:)``) has the same grid, its deadlines the
/// instants its frames are due to be sent, each a lead before a vblank: a deadline's frames
/// show the vblank (``showOffset`` after it). Its frames are not held for the deadline: each
/// leaves as soon as it is rendered, the render lead ahead of it, so that the display's own
/// lead is the least a frame has in hand. Its renders start on the coarse grids every display
/// clock shares (``DisplayWakeTime``): the clocks of many displays of random phases wake
/// together, a few times a period, not each on its own, and render in the order of their
/// deadlines. A render never starts before the vblank before its frame's (where the frame
/// would replace the one showing it), unless the lead is longer than a period.
public final class FrameClock {
  /// The longest a render runs before the loop serves its other events, in seconds by
  /// default: about as long as a request waits for a render under way.
  static let defaultSliceSeconds = 0.000_1

  let fps: Double
  /// How long after a deadline the frames rendered for it show: 0 on a grid, the lead on a
  /// display.
  let showOffset: Double
  /// Whether a tick's frames are held until its deadline (on a grid) or leave as rendered
  /// (on a display).
  private let holdsOutput: Bool
  /// The longest a render runs before the loop serves its other events, in seconds.
  let sliceSeconds: Double
  /// The time of deadline 0.
  let origin: Double
  private let clock: ServerClock
  private let stats: FrameStreamStats
  /// The render time of every frame clock, shared by uid.
  private let shares: RenderShares
  /// Whether each uid renders in the tick under way, decided at its first stream.
  private var tickAllowance: [RenderShares.Owner: Bool] = [:]
  /// Starts a tick's render, and continues it after each slice.
  private var renderTimer: (any ServerTimer)?
  /// Releases a rendered tick's held output at its deadline.
  private var presentTimer: (any ServerTimer)?
  /// The grid index of the next deadline to render.
  private var scheduledIndex = 0
  /// The streams, in order of joining. A stream taken out leaves a hole (nil) until the next
  /// render begins (or a stream joins when holes are half the list), so that taking one out
  /// costs the same however many tick, and never copies the list while a render walks it.
  private var slots: [FrameStream?] = []
  private var holes = 0
  /// The streams, in order of joining.
  var streams: [FrameStream] { slots.compactMap { $0 } }
  /// True when no stream ticks on the clock.
  var isEmpty: Bool { slots.count == holes }
  /// The length of the list, holes included.
  var slotCount: Int { slots.count }
  private(set) var lead: RenderLead
  private let presenter = FramePresenter()
  /// The deadline being rendered, between slices; nil when no render is under way.
  private var renderTime: Double?
  /// The slots the render under way walks: those filled when it began.
  private var renderEnd = 0
  private var renderNext = 0
  private var renderStart = 0.0
  /// A display clock's renders start no earlier than this (``add(_:sendsAfter:)``).
  private var wakeFloor = -Double.infinity

  /// - Parameter renderEstimate: The render duration its lead starts from (``RenderLead``).
  init(
    pacing: FramePacing, clock: ServerClock, stats: FrameStreamStats, shares: RenderShares,
    sliceSeconds: Double, renderEstimate: Double = 0
  ) {
    fps = pacing.fps
    self.sliceSeconds = sliceSeconds
    self.clock = clock
    self.stats = stats
    self.shares = shares
    switch pacing {
    case .grid:
      origin = clock.now
      showOffset = 0
      holdsOutput = true
    case .display(let timing):
      origin = timing.anchor - timing.lead
      showOffset = timing.lead
      holdsOutput = false
    }
    lead = RenderLead(period: 1 / fps, timerSlack: clock.timerSlack, estimate: renderEstimate)
  }

  deinit {
    renderTimer?.cancel()
  }

  /// The time of grid deadline `index`.
  func deadline(_ index: Int) -> Double {
    origin + Double(index) / fps
  }

  /// Adds `stream` to the ticks, from the next grid deadline not yet rendered on. On a
  /// display, no render starts before `sendsAfter` from now on: a stream moved here from
  /// another timing (``FrameStream/attach(_:movingFrom:at:)``) has its last frame there shown
  /// at that vblank first.
  func add(_ stream: FrameStream, sendsAfter: Double?) {
    guard !stream.isOnFrameClock else { return }
    // Streams that join and leave between two renders leave holes: past half the list they
    // are closed now, so that the list stays within twice the streams on the clock.
    if renderTime == nil, holes > slots.count / 2 { closeHoles() }
    stream.tickingClock = self
    stream.clockSlot = slots.count
    slots.append(stream)
    shares.streamAdded(stream.session.ownerUID, at: clock.now)
    if let sendsAfter, !holdsOutput, sendsAfter > wakeFloor {
      wakeFloor = sendsAfter
      // A render already set for earlier waits for the floor.
      if renderTime == nil, renderTimer?.isScheduled == true {
        return scheduleRender(after: clock.now, notBefore: scheduledIndex)
      }
    }
    guard renderTimer?.isScheduled != true, renderTime == nil else { return }
    scheduleRender(after: clock.now, notBefore: scheduledIndex + 1)
  }

  /// Takes `stream` out of the ticks; the last one leaving stops the clock (a render under
  /// way ends, and its held output is still released at its deadline).
  func remove(_ stream: FrameStream) {
    guard stream.tickingClock === self else { return }
    stream.tickingClock = nil
    slots[stream.clockSlot] = nil
    holes += 1
    shares.streamRemoved(stream.session.ownerUID, at: clock.now)
    guard isEmpty else { return }
    slots.removeAll(keepingCapacity: true)
    holes = 0
    renderTimer?.cancel()
    if renderTime != nil { finishRender() }
  }

  /// Sends what a rendered tick holds now and stops its present timer: at shutdown the held
  /// frames leave before `stopping`, and nothing holds a client any longer.
  func releaseHeldOutput() {
    presentTimer?.cancel()
    presenter.release()
  }

  /// The grid deadline a render starting at `now` shows: the one the timer was set for, or,
  /// when the loop fell behind, the latest deadline at or before `now`.
  func tickTime(at now: Double) -> (index: Int, time: Double) {
    let elapsed = ((now - origin) * fps).rounded(.down)
    var index = max(scheduledIndex, elapsed < 0 ? 0 : Int(min(elapsed, 1e15)))
    // Rounding may leave the computed deadline just after `now`.
    while index > scheduledIndex, deadline(index) > now { index -= 1 }
    return (index, deadline(index))
  }

  /// Schedules the render of the first grid deadline after `now`, and not before index
  /// `minimum`, a lead before that deadline.
  private func scheduleRender(after now: Double, notBefore minimum: Int) {
    let elapsed = ((now - origin) * fps).rounded(.down)
    var index = max(minimum, elapsed < 0 ? 0 : Int(min(elapsed, 1e15)) + 1)
    // Rounding may leave the computed deadline at or before `now`.
    while deadline(index) <= now { index += 1 }
    // A display's vblanks up to the floor get no frame: none could leave before them.
    while !holdsOutput, deadline(index) + showOffset <= wakeFloor { index += 1 }
    scheduledIndex = index
    if renderTimer == nil {
      // Unowned: deinit cancels the timer (the present timer, which holds only the
      // presenter, may outlive the clock).
      renderTimer = clock.makeTimer { [unowned self] in self.renderTimerFired() }
    }
    let start = deadline(index) - lead.seconds
    if holdsOutput {
      renderTimer?.schedule(at: start)
      return
    }
    // A display's frame shows deadline + showOffset; the one before shows a deadline
    // earlier, and the frame leaves after it (unless the lead is longer than a period).
    let previousVblank = max(deadline(index - 1) + showOffset, wakeFloor)
    let due = deadline(index) > previousVblank ? max(start, previousVblank) : start
    let wake = max(DisplayWakeTime.wake(renderStart: due, after: previousVblank), wakeFloor)
    // The clocks woken at one grid point render in the order of their deadlines: each wakes
    // a thousandth of its time in hand after the point (at most microseconds), and the loop
    // runs the timers due in the order of their instants.
    renderTimer?.schedule(at: wake + max(deadline(index) - wake, 0) / 1_000)
  }

  private func renderTimerFired() {
    guard renderTime != nil else { return beginRender() }
    // The loop has served its other events since the last slice: a client a reply woke there
    // may be waiting for this CPU, behind the render.
    clock.yieldProcessor()
    renderSlice()
  }

  /// Starts rendering the scheduled deadline: what an earlier tick still holds leaves first.
  private func beginRender() {
    let now = clock.now
    if presentTimer?.isScheduled == true {
      presentTimer?.cancel()
      presenter.release()
    }
    let (index, time) = tickTime(at: now)
    scheduledIndex = index
    renderTime = time
    closeHoles()
    renderEnd = slots.count
    renderNext = 0
    renderStart = now
    tickAllowance.removeAll(keepingCapacity: true)
    presenter.beginTick()
    renderSlice()
  }

  /// Renders due streams until the slice's time is up, then lets the loop run and goes on.
  private func renderSlice() {
    let sliceEnd = clock.now + sliceSeconds
    while let time = renderTime, renderNext < renderEnd {
      let slot = renderNext
      renderNext += 1
      guard let stream = slots[slot] else { continue }
      renderIfDue(stream, at: time + showOffset)
      if renderTime != nil, renderNext < renderEnd {
        let now = clock.now
        if now >= sliceEnd {
          renderTimer?.schedule(at: now)
          return
        }
      }
    }
    if renderTime != nil { finishRender() }
  }

  /// Renders the frame at `time` for `stream`, held until the deadline, unless its session
  /// ends by then (its completion sends the last frame) or the stream already showed `time`
  /// (it joined, or its session changed, after the render began).
  private func renderIfDue(_ stream: FrameStream, at time: Double) {
    guard stream.tickingClock === self, !stream.session.ends(by: time) else { return }
    if let last = stream.lastFrameTime ?? stream.showsAfter, last >= time { return }
    guard shares.isSharing else {
      return stream.tick(at: time, holding: holdsOutput ? presenter : nil)
    }
    let owner = stream.session.ownerUID
    let allowed: Bool
    if let decided = tickAllowance[owner] {
      allowed = decided
    } else {
      allowed = shares.mayRender(owner, at: renderStart)
      tickAllowance[owner] = allowed
    }
    guard allowed else {
      stats.framesDeferred += 1
      return
    }
    shares.charging(owner, on: clock) {
      stream.tick(at: time, holding: holdsOutput ? presenter : nil)
    }
  }

  /// Ends the render under way: its output is released at its deadline (at once when that
  /// has passed), and the next deadline's render is scheduled while streams remain.
  private func finishRender() {
    guard let time = renderTime else { return }
    let now = clock.now
    lead.record(now - renderStart)
    renderTime = nil
    renderEnd = 0
    stats.ticksRendered += 1
    if !holdsOutput {
      if time < now { stats.ticksLate += 1 }
    } else if time > now {
      if presentTimer == nil {
        presentTimer = clock.makeTimer { [presenter] in presenter.release() }
      }
      presentTimer?.schedule(at: time)
    } else {
      stats.ticksLate += 1
      presenter.release()
    }
    guard !isEmpty else { return }
    scheduleRender(after: now, notBefore: scheduledIndex + 1)
  }

  /// Moves the streams up over the holes that those taken out left, keeping their order.
  private func closeHoles() {
    guard holes > 0 else { return }
    var filled = 0
    for slot in slots.indices {
      guard let stream = slots[slot] else { continue }
      stream.clockSlot = filled
      slots.swapAt(filled, slot)
      filled += 1
    }
    slots.removeLast(slots.count - filled)
    holes = 0
  }
}

@available(*, unavailable) extension FrameClock: Sendable {}
