import FrameStreaming
import Testing
import TransitionKit
import TransitionWire

@testable import TransitionServer

/// ``CompiledTimelines``: sessions with equal timelines get copies of one renderer, which
/// write what a renderer of their own writes; any other timeline gets its own.
@Suite struct CompiledTimelinesTests {
  /// A still layer and one whose `z` runs from 0 to `z` and whose box moves, over `duration`.
  private func timeline(z: Double, duration: Double = 0.5) throws -> Timeline {
    let still = TimelineLayer(
      id: "still", initial: LayerAttributes(frame: Rect(x: 0, y: 0, width: 390, height: 844)))
    let moving = TimelineLayer(
      id: "moving", initial: LayerAttributes(frame: Rect(x: 1, y: 2, width: 3, height: 4)),
      tracks: [
        PropertyTrack(.z, keyframes: [Keyframe(start: 0, duration: 1, value: .number(z))]),
        PropertyTrack(
          .frame,
          keyframes: [
            Keyframe(
              start: 0.25, duration: 0.5, value: .rect(Rect(x: 9, y: 8, width: 7, height: 6)))
          ]),
      ])
    return try Timeline(duration: duration, layers: [still, moving])
  }

  /// The lines `renderer` writes at a few progresses, in order.
  private func lines(_ renderer: inout FrameRenderer) -> [[UInt8]] {
    [0.1, 0.5, 0.5, 0.9, 1].enumerated().map { seq, progress in
      renderer.render(seq: seq, progress: progress)
    }
  }

  @Test func copiesOfOneRendererWriteWhatRenderersOfTheirOwnWrite() throws {
    let stats = ServerStats(startTime: 0)
    let compiled = CompiledTimelines(stats: stats)
    for session in ["first", "second", "third"] {
      var shared = compiled.renderer(for: try timeline(z: 4), session: session)
      var own = FrameRenderer(session: session, timeline: try timeline(z: 4))
      #expect(lines(&shared) == lines(&own))
    }
    #expect((stats.timelinesShared, stats.timelinesCompiled) == (2, 1))
  }

  @Test func aTimelineThatDiffersInOneValueGetsItsOwnRenderer() throws {
    let stats = ServerStats(startTime: 0)
    let compiled = CompiledTimelines(stats: stats)
    _ = compiled.renderer(for: try timeline(z: 4), session: "a")
    var other = compiled.renderer(for: try timeline(z: 8), session: "b")
    var longer = compiled.renderer(for: try timeline(z: 8, duration: 1), session: "c")
    #expect((stats.timelinesShared, stats.timelinesCompiled) == (0, 3))
    var ownOther = FrameRenderer(session: "b", timeline: try timeline(z: 8))
    var ownLonger = FrameRenderer(session: "c", timeline: try timeline(z: 8, duration: 1))
    #expect(lines(&other) == lines(&ownOther))
    #expect(lines(&longer) == lines(&ownLonger))
  }

  @Test func theLeastLatelyUsedTimelineIsDroppedFirst() throws {
    let stats = ServerStats(startTime: 0)
    let compiled = CompiledTimelines(stats: stats, capacity: 2)
    _ = compiled.renderer(for: try timeline(z: 1), session: "s")
    _ = compiled.renderer(for: try timeline(z: 2), session: "s")
    _ = compiled.renderer(for: try timeline(z: 1), session: "s")  // used again: 2 is the oldest
    _ = compiled.renderer(for: try timeline(z: 3), session: "s")  // drops 2
    #expect((stats.timelinesShared, stats.timelinesCompiled) == (1, 3))
    _ = compiled.renderer(for: try timeline(z: 1), session: "s")
    #expect((stats.timelinesShared, stats.timelinesCompiled) == (2, 3))
    _ = compiled.renderer(for: try timeline(z: 2), session: "s")
    #expect((stats.timelinesShared, stats.timelinesCompiled) == (2, 4))
  }

  @Test func whatIsKeptStaysWithinItsWeight() throws {
    // Each timeline weighs 2 layers and 2 keyframes.
    #expect(CompiledTimelines.weight(of: try timeline(z: 1)) == 4)
    let stats = ServerStats(startTime: 0)
    let compiled = CompiledTimelines(stats: stats, weightBudget: 16)
    for z in 1...5 {  // 5 drops 1
      _ = compiled.renderer(for: try timeline(z: Double(z)), session: "s")
    }
    _ = compiled.renderer(for: try timeline(z: 1), session: "s")  // drops 2
    _ = compiled.renderer(for: try timeline(z: 5), session: "s")
    _ = compiled.renderer(for: try timeline(z: 3), session: "s")
    #expect((stats.timelinesShared, stats.timelinesCompiled) == (2, 6))
    _ = compiled.renderer(for: try timeline(z: 2), session: "s")
    #expect((stats.timelinesShared, stats.timelinesCompiled) == (2, 7))
    // Heavier than a quarter of the budget: compiled, not kept.
    let lightStats = ServerStats(startTime: 0)
    let light = CompiledTimelines(stats: lightStats, weightBudget: 15)
    _ = light.renderer(for: try timeline(z: 1), session: "s")
    _ = light.renderer(for: try timeline(z: 1), session: "s")
    #expect((lightStats.timelinesShared, lightStats.timelinesCompiled) == (0, 2))
  }

  @Test func noCapacityKeepsNothing() throws {
    let stats = ServerStats(startTime: 0)
    let compiled = CompiledTimelines(stats: stats, capacity: 0)
    _ = compiled.renderer(for: try timeline(z: 1), session: "s")
    _ = compiled.renderer(for: try timeline(z: 1), session: "s")
    #expect((stats.timelinesShared, stats.timelinesCompiled) == (0, 2))
  }
}
