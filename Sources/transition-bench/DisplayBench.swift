import Foundation

/// Renderers on their own display timers (docs/renderers.md, "The two clocks"): `sessions`
/// zoom-present sessions read over `connections` connections, each connection a display with
/// a random phase at a fixed refresh rate, or with variable refresh (a new rate in the range
/// every half second, told to the daemon with `display`). Each display shows, at each of its
/// vblanks, the newest frame it has received by then.
///
/// Paced, every subscription gives its display's timing (`subscribe`'s `display`); on the
/// grid, it asks for `fps` = the highest rate, as a renderer does today. From the arrival
/// times and the display's vblanks, found after the run: how far each shown frame's instant
/// (`start` + `t`) is from the vblank it is shown at, the vblanks that show the same frame
/// again (repeated) and the frames that arrived and were replaced before any vblank showed
/// them (skipped), how long before its own instant each frame arrived, and the daemon's CPU.
struct DisplayBench {
  /// A display's refresh.
  enum Refresh {
    case fixed(hertz: Double)
    case variable(ClosedRange<Double>)

    var name: String {
      switch self {
      case .fixed(let hertz): "\(Int(hertz)) Hz"
      case .variable(let range): "\(Int(range.lowerBound))–\(Int(range.upperBound)) Hz VRR"
      }
    }

    /// Whether the rate is fixed.
    var isFixed: Bool {
      if case .fixed = self { return true }
      return false
    }

    /// The rate a grid subscriber asks for: the highest the display shows.
    var gridFps: Int {
      switch self {
      case .fixed(let hertz): Int(hertz.rounded())
      case .variable(let range): Int(range.upperBound.rounded())
      }
    }
  }

  struct Result {
    /// |shown instant − vblank| of the frame each vblank shows, in seconds.
    var error = Percentiles([])
    /// The same, of each frame at the first vblank that shows it: how far a frame's `t` is
    /// from the instant it is seen, apart from the vblanks that show a frame again.
    var firstShownError = Percentiles([])
    var vblanks = 0
    var repeated = 0
    var skipped = 0
    /// The frame's own instant minus its arrival, in seconds.
    var earliness = Percentiles([])
    var framesRead = 0
    var cpuFraction = 0.0
    var seconds = 0.0
    /// The daemon's frame clock ticks over the whole run (`stats`' `ticks`), and those
    /// whose frames were ready only after their deadline: on a display, after the vblank
    /// less the lead.
    var ticksRendered = 0
    var ticksLate = 0

    /// Frames read a second, over the measured span.
    var framesPerSecond: Double { Double(framesRead) / max(seconds, 1e-9) }
    /// The daemon's CPU seconds a frame read.
    var cpuPerFrame: Double { cpuFraction / max(framesPerSecond, 1) }
  }

  /// One stretch of a display's vblanks: `first`, then every `period` until the next stretch.
  private struct Stretch {
    var first: Double
    var period: Double
  }

  /// A frame as one subscriber received it.
  private struct Arrival {
    var arrived: Double
    var seq: Int
    var shown: Double
  }

  let daemon: DaemonProcess

  /// Runs one scenario: `paced` by the displays or on the grid, for `seconds` measured after
  /// half a second of settling.
  ///
  /// - Parameter gridFps: The rate grid subscribers ask for (default ``Refresh/gridFps``).
  func run(
    refresh: Refresh, paced: Bool, sessions: Int, connections: Int, seconds: Double,
    lead: Double, gridFps: Int? = nil
  ) throws -> Result {
    let gridFps = gridFps ?? refresh.gridFps
    let control = try LineSocket(path: daemon.socketPath)
    let readers = try (0..<connections).map { _ in try LineSocket(path: daemon.socketPath) }
    let setup = 1.0 + Double(sessions) * 0.002
    let duration = seconds + setup + 60
    var starts = [Double](repeating: 0, count: sessions)
    for index in 0..<sessions {
      let reply = try control.request(
        #"{"op":"begin","session":"z\#(index)","duration":\#(duration),"context":\#(BenchContexts.zoomPresent)}"#
      )
      guard reply.contains(#""ok":true"#), let start = reply.value(of: "start").flatMap(Double.init)
      else { throw BenchError("begin failed: \(reply)") }
      starts[index] = start
    }
    let startTimes = starts
    // Each display: a random phase, and for variable refresh a new rate every half second.
    let origin = Monotonic.now + setup
    var generator = SystemRandomNumberGenerator()
    let schedules: [[Stretch]] = (0..<connections).map { _ in
      switch refresh {
      case .fixed(let hertz):
        let period = 1 / hertz
        return [Stretch(first: Monotonic.now + Double.random(in: 0..<period), period: period)]
      case .variable(let range):
        var stretches = [
          Stretch(
            first: Monotonic.now + Double.random(in: 0..<0.01),
            period: 1 / Double.random(in: range, using: &generator))
        ]
        var change = origin
        while change < origin + seconds + 1 {
          let last = stretches[stretches.count - 1]
          // The first vblank of the old rate whose frame is not yet sent when the change is
          // told starts the new rate.
          let from = change + lead + 0.002
          let index = ((from - last.first) / last.period).rounded(.up)
          stretches.append(
            Stretch(
              first: last.first + index * last.period,
              period: 1 / Double.random(in: range, using: &generator)))
          change += 0.5
        }
        return stretches
      }
    }
    let collector = DisplayCollector()
    let measureFrom = origin
    let measureTo = origin + seconds
    let cpuBox = CPUWindow()
    let pid = daemon.pid
    runOnThreads(connections) { connection in
      let socket = readers[connection]
      let schedule = schedules[connection]
      let mine = Array(stride(from: connection, to: sessions, by: connections))
      do {
        var subscriptionOf: [Int: Int] = [:]
        for session in mine {
          let timing = schedule[0]
          let line =
            paced
            ? #"{"op":"subscribe","session":"z\#(session)","display":{"period":\#(timing.period),"vblank":\#(timing.first),"lead":\#(lead)}}"#
            : #"{"op":"subscribe","session":"z\#(session)","fps":\#(gridFps)}"#
          let reply = try socket.request(line)
          guard let id = reply.value(of: "subscription").flatMap(Int.init) else {
            throw BenchError("subscribe failed: \(reply)")
          }
          subscriptionOf[session] = id
        }
        var parser = FrameLineParser()
        var frames: [Int: [Arrival]] = [:]
        // Per session, the next stretch to tell the daemon about (variable refresh, paced).
        var nextStretch: [Int: Int] = Dictionary(uniqueKeysWithValues: mine.map { ($0, 1) })
        var failure: Error?
        var finished = false
        var cpuMarks = 0
        while !finished, failure == nil {
          var requests: [String] = []
          let more = socket.readChunk { chunk, arrival in
            parser.feed(chunk) { line in
              switch line {
              case .frame(let session, let seq, let t, _):
                guard session < sessions else { return }
                let shown = startTimes[session] + t
                frames[session, default: []].append(
                  Arrival(arrived: arrival, seq: seq, shown: shown))
                if arrival > measureTo + 0.3 { finished = true }
                // The first reader marks the daemon's CPU at both ends of the measured span.
                if connection == 0, arrival >= measureFrom,
                  cpuMarks == 0
                    || (cpuMarks == 1 && arrival >= measureTo)
                {
                  cpuMarks += 1
                  cpuBox.mark(DaemonProcess.cpuSeconds(of: pid), at: arrival)
                }
                guard paced, let next = nextStretch[session], next < schedule.count,
                  shown >= schedule[next].first - 1e-4
                else { return }
                // The frame of the new rate's first vblank: the change is told now.
                let stretch = schedule[next]
                nextStretch[session] = next + 1
                requests.append(
                  #"{"op":"display","subscription":\#(subscriptionOf[session] ?? 0),"period":\#(stretch.period),"vblank":\#(stretch.first + stretch.period),"lead":\#(lead)}"#
                )
              case .failure(let line): failure = BenchError("a request failed: \(line)")
              case .complete, .other: break
              }
            }
          }
          for request in requests { try socket.send(request) }
          if !more { failure = BenchError("the daemon closed a connection") }
        }
        var result = Result()
        for (_, arrivals) in frames {
          Self.judge(
            arrivals, schedule: schedule, from: measureFrom, to: measureTo, into: &result)
        }
        collector.add(result, failure: failure)
      } catch {
        collector.add(Result(), failure: error)
      }
    }
    if let failure = collector.failure { throw failure }
    var result = collector.result
    result.error = Percentiles(collector.errors)
    result.firstShownError = Percentiles(collector.firstShownErrors)
    result.earliness = Percentiles(collector.earlinesses)
    result.cpuFraction = cpuBox.fraction
    result.seconds = seconds
    let stats = try control.request(#"{"op":"stats"}"#)
    if let object = try? JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any],
      let ticks = (object["stats"] as? [String: Any])?["ticks"] as? [String: Any]
    {
      result.ticksRendered = (ticks["rendered"] as? NSNumber)?.intValue ?? 0
      result.ticksLate = (ticks["late"] as? NSNumber)?.intValue ?? 0
    }
    for index in 0..<sessions {
      _ = try? control.request(#"{"op":"end","session":"z\#(index)"}"#)
    }
    return result
  }

  /// Shows `arrivals` (one subscriber's frames, in arrival order) at the vblanks of
  /// `schedule` between `from` and `to`, and counts into `result`.
  private static func judge(
    _ arrivals: [Arrival], schedule: [Stretch], from: Double, to: Double,
    into result: inout Result
  ) {
    var vblanks: [Double] = []
    for (index, stretch) in schedule.enumerated() {
      let end = index + 1 < schedule.count ? schedule[index + 1].first : to
      var vblank = stretch.first
      if vblank < from {
        vblank += ((from - vblank) / stretch.period).rounded(.up) * stretch.period
      }
      while vblank < end - 1e-6, vblank < to {
        if vblank >= from { vblanks.append(vblank) }
        vblank += stretch.period
      }
    }
    var next = 0
    var newest: Arrival?
    // What arrived before the first vblank measured is in hand, not skipped.
    while next < arrivals.count, let first = vblanks.first, arrivals[next].arrived <= first - 1e-3 {
      newest = arrivals[next]
      next += 1
    }
    var lastShownSeq: Int?
    var errors: [Double] = []
    var firstShown: [Double] = []
    var earliness: [Double] = []
    for vblank in vblanks {
      var arrivedBetween: [Arrival] = []
      while next < arrivals.count, arrivals[next].arrived <= vblank {
        arrivedBetween.append(arrivals[next])
        newest = arrivals[next]
        next += 1
      }
      guard let shown = newest else { continue }
      result.vblanks += 1
      errors.append(abs(shown.shown - vblank))
      if shown.seq == lastShownSeq {
        result.repeated += 1
      } else {
        firstShown.append(abs(shown.shown - vblank))
      }
      // Frames replaced before any vblank showed them, counting a frame sent again for the
      // same instant as the same frame.
      let distinct = Set(arrivedBetween.map { ($0.shown * 1e6).rounded() })
      result.skipped += max(distinct.count - 1, 0)
      lastShownSeq = shown.seq
    }
    for arrival in arrivals where arrival.arrived >= from && arrival.arrived < to {
      earliness.append(arrival.shown - arrival.arrived)
      result.framesRead += 1
    }
    result.error = Percentiles(result.error.samples + errors)
    result.firstShownError = Percentiles(result.firstShownError.samples + firstShown)
    result.earliness = Percentiles(result.earliness.samples + earliness)
  }
}

/// The daemon's CPU seconds at two instants.
final class CPUWindow: @unchecked Sendable {
  private let lock = NSLock()
  private var marks: [(cpu: Double, time: Double)] = []

  func mark(_ cpu: Double, at time: Double) {
    lock.lock()
    defer { lock.unlock() }
    marks.append((cpu, time))
  }

  /// CPU seconds a second between the first two marks.
  var fraction: Double {
    lock.lock()
    defer { lock.unlock() }
    guard marks.count >= 2, marks[1].time > marks[0].time else { return 0 }
    return (marks[1].cpu - marks[0].cpu) / (marks[1].time - marks[0].time)
  }
}

/// What the display threads found, merged.
final class DisplayCollector: @unchecked Sendable {
  private let lock = NSLock()
  private(set) var result = DisplayBench.Result()
  private(set) var errors: [Double] = []
  private(set) var firstShownErrors: [Double] = []
  private(set) var earlinesses: [Double] = []
  private(set) var failure: Error?

  func add(_ part: DisplayBench.Result, failure: Error?) {
    lock.lock()
    defer { lock.unlock() }
    result.vblanks += part.vblanks
    result.repeated += part.repeated
    result.skipped += part.skipped
    result.framesRead += part.framesRead
    errors += part.error.samples
    firstShownErrors += part.firstShownError.samples
    earlinesses += part.earliness.samples
    if self.failure == nil { self.failure = failure }
  }
}
