/// The presenter of a frame clock: it holds the output of the sinks a tick rendered ahead of
/// its deadline (``FrameSink/holdOutput()``) and releases it at that deadline, so that the
/// tick's frames leave when they are due, not when they were ready.
///
/// A sink is listed once per tick however many of its streams rendered; ``release()`` has
/// every listed sink send what it holds, once, and empties the list.
public final class FramePresenter {
  /// Which presenter listed a sink in which tick (``FrameSink/presentationMark``).
  public struct Mark: Equatable {
    let holder: ObjectIdentifier
    let tick: UInt64
  }

  private var sinks: [any FrameSink] = []
  /// Starts anywhere, so that a presenter made at the address of one gone before does not
  /// take a sink's old mark for its own.
  private var tick = UInt64.random(in: 0...UInt64.max)
  private var mark: Mark { Mark(holder: ObjectIdentifier(self), tick: tick) }

  /// Starts a new tick's list (after ``release()``).
  func beginTick() {
    tick &+= 1
  }

  /// Holds `sink`'s output until ``release()``; the second call in a tick does nothing.
  func hold(_ sink: any FrameSink) {
    let mark = mark
    guard sink.presentationMark != mark else { return }
    sink.presentationMark = mark
    sink.holdOutput()
    sinks.append(sink)
  }

  /// Sends every held sink's output now.
  func release() {
    let released = sinks
    sinks = []
    for sink in released { sink.flushNow() }
  }
}

@available(*, unavailable) extension FramePresenter: Sendable {}
