import FrameStreaming

/// A measurement transition-bench can make: the one list of modes, which the command line,
/// the usage text and the run loop all read.
enum BenchMode: String, CaseIterable {
  case evaluate, encode, decode, stages, stream, scale, update, begin, tap, fairness, idle, delta
  case restart, render, geometry, display

  /// What the mode measures, for the usage text (lines after the first are indented there).
  var summary: String {
    switch self {
    case .evaluate:
      "layer states per second evaluating an album-flip-like timeline (one core)"
    case .encode:
      """
      frame events per second: FrameEncoder vs Foundation's JSONEncoder, same frames;
      and FrameRenderer: evaluate + encode together (the engine's frame rate, one
      stream tick's work)
      """
    case .decode:
      """
      frame events per second parsed as a client parses them: JSONValue
      (TransitionClient) vs Foundation's JSONSerialization
      """
    case .stages:
      """
      a tap's CPU in process, stage by stage (album-flip push): the plugin host's
      context read, timeline built by the data animator and written in binary (and
      JSON); the daemon's timeline read (binary, JSON), compiled and first frame
      rendered; µs a tap. Then the daemon's work a frame of the push at 240 fps (what
      stream asks of it), of the zoom present, and of 1,000 zoom presents at 60 fps
      rendered in turn (what scale asks of it), and of 100, back to back and a tick
      apart: a frame from state gone cold, and what waking for a tick costs; last, an
      update's reply and frame in the server core, back to back and 2–8 ms apart
      """
    case .stream:
      """
      frames per second to one reader of a real transitiond (virtual clock, album-flip
      push), beside the socket's own limit for lines of the same bytes and the Node.js
      script (when node is on the PATH), interleaved; then four readers at once
      """
    case .scale:
      """
      wall-clock sessions × fps × connections: p50/p99 lateness against each
      session's frame grid, seq gaps, the daemon's CPU and peak RSS (1000 × 60 fps
      full and delta, and 500 × 120 fps, over 50 connections; or one scenario of
      --sessions/--fps/--connections/--encoding)
      """
    case .update:
      """
      update → the frame showing it, with 100 other sessions streaming (or
      --sessions); beside each update, the same round trip to a peer that only
      echoes, from a thread and from a process (the machine's floor); the daemon's
      and the echo process's round trips in the 4 ms before a tick and between ticks
      """
    case .begin:
      """
      begin → its reply: album-flip begins one after another over one connection
      (the animator plugin answering), median and p99
      """
    case .tap:
      """
      begin + subscribe written together → the first frame (a tap's first frame):
      album-flip push of 24 cells and zoom-present present, median and p99, and the
      CPU a tap costs the daemon and its plugin host (after 50 untimed taps of each)
      """
    case .fairness:
      """
      two users: one streams its whole session quota at 240 fps to readers that never
      read, the other 20 sessions at 60 fps read at once; the second user's p50/p99
      lateness beside the same 20 sessions alone (needs root: the first user's client
      runs as nobody)
      """
    case .idle: "start-up time (to the first reply) and CPU used while idle"
    case .geometry:
      """
      frame events per second encoded for a plain stream and for a `geometry: "quad"`
      stream (each layer's projected corners, w and affine map), full and as deltas, the
      same album-flip-like frames, one core
      """
    case .restart:
      """
      frames of a 60 fps session while the plugin host is killed once a second (20
      times), three processes spinning at nice 10 beside it: p99 and worst lateness
      within 0.5 s after a kill, beside the frames away from any kill
      """
    case .render:
      """
      transitionctl render of the one-second album flip (recorded at 33.3 fps) to a GIF
      with the native renderer and with headless Chromium, alternating run by run:
      both medians and their ratio
      """
    case .display:
      """
      renderers on their own display timers (60, 120, 144 Hz, random phase; 48–144 Hz
      variable refresh), 1,000 subscribers over 50 connections (or --sessions,
      --connections), display-paced beside today's fps grid, 30 s each (or --seconds):
      |shown instant − vblank| p99/max, repeated and skipped frames at vblanks, how
      early frames arrive against the lead (p1), the daemon's CPU
      """
    case .delta:
      """
      bytes of delta frames against full frames of the same session (album-flip
      push of 24 cells, zoom-present present; virtual clock at 60 fps), and
      FrameDeltaEncoder's frames per second against FrameEncoder's, same frames
      """
    }
  }

  /// The modes' part of the usage text.
  static var usage: String {
    let lines = allCases.map { mode in
      let name = mode.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)
      let summary = mode.summary.split(separator: "\n").joined(separator: "\n            ")
      return "  \(name)\(summary)"
    }
    return (lines + ["  all       every mode above"]).joined(separator: "\n")
  }
}
