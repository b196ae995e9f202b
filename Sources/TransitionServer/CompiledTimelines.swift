import FrameStreaming
import TransitionKit
import TransitionWire

/// The timelines compiled most lately, each with a renderer of its frames, so that sessions
/// whose animators made equal timelines (the same transition on the same screen, tapped
/// again or by many clients) share what a renderer compiles and writes once: the evaluator's
/// tracks, keys and curves and the frame's template. Every such session's frames read the
/// same memory, which stays in the caches between them, and a timeline seen before is not
/// compiled again.
///
/// Holds at most ``capacity`` timelines of at most ``weightBudget`` layers and keyframes in
/// all, the least lately used dropped first (a timeline heavier than a quarter of the budget
/// is not kept), so that what it keeps after its sessions end stays small; a timeline is
/// matched by equality. Every renderer made here writes its lines into its one
/// ``TransitionWire/FrameScratch``.
final class CompiledTimelines {
  let capacity: Int
  let weightBudget: Int
  /// The weight of the timelines kept.
  private var keptWeight = 0
  /// Where the renderers made here write their lines, one after another on the core's
  /// thread, each line handed on before the next is written.
  private let scratch = FrameScratch()
  /// Most lately used last; each renderer has rendered its timeline's first frame.
  private var entries: [(timeline: Timeline, renderer: FrameRenderer, weight: Int)] = []
  /// Counts the timelines compiled and shared (`stats.timelines`).
  private let stats: ServerStats

  init(stats: ServerStats, capacity: Int = 16, weightBudget: Int = 16_384) {
    self.stats = stats
    self.capacity = capacity
    self.weightBudget = weightBudget
  }

  /// What keeping `timeline` counts against ``weightBudget``: its layers and keyframes.
  static func weight(of timeline: Timeline) -> Int {
    timeline.layers.reduce(0) { sum, layer in
      layer.tracks.reduce(sum + 1) { $0 + $1.keyframes.count }
    }
  }

  /// A renderer of `timeline`'s frames for `session`: a copy of one made before for an equal
  /// timeline, or a new one.
  func renderer(for timeline: Timeline, session: String) -> FrameRenderer {
    // Timeline's equality compares the duration first, then the layer count: a timeline
    // that differs is told apart at once.
    let index = entries.lastIndex { $0.timeline == timeline }
    if let index {
      stats.timelinesShared += 1
      let entry = entries.remove(at: index)
      entries.append(entry)
      return entry.renderer.renamed(to: session)
    }
    stats.timelinesCompiled += 1
    var renderer = FrameRenderer(session: session, timeline: timeline, scratch: scratch)
    let weight = Self.weight(of: timeline)
    guard capacity > 0, weight <= weightBudget / 4 else { return renderer }
    // The first frame builds the template the copies share.
    renderer.render(seq: 0, progress: 0) { _ in }
    while entries.count == capacity || keptWeight + weight > weightBudget {
      keptWeight -= entries.removeFirst().weight
    }
    entries.append((timeline, renderer, weight))
    keptWeight += weight
    return renderer
  }
}

@available(*, unavailable) extension CompiledTimelines: Sendable {}
