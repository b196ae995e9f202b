import Glibc
import TransitionClient
import TransitionWire

/// `transitionctl watch [SESSION|*]`: subscribes and prints frames as NDJSON, or a live view.
enum WatchCommand: Command {
  static let name = "watch"
  static let summary = "Watch sessions' frames as NDJSON, or as a live view on a terminal."
  static let usage =
    "watch [SESSION|*] [--fps N] [--virtual] [--delta] [--pretty | --no-pretty] [--count N] "
    + "[--out FILE]"
  static let details = """
    Subscribes to SESSION, or to every session with '*' (the default, quote it for the shell),
    and prints each event the daemon sends (frame, begin, complete) as one JSON line exactly as
    received. Watching one session ends when it completes; watching '*' runs until interrupted
    or until --count sessions have completed. When the daemon stops or restarts, watching '*'
    says so once on standard error, connects again as soon as a daemon answers on the socket
    (trying at growing intervals up to 2 s) and goes on with the sessions begun after the
    restart; watching one SESSION ends, since the session is lost with the daemon. With --out FILE the
    events go to FILE (a recording that replays with no daemon: each session's begin event,
    its frames and its complete event, exactly as received), and standard output keeps the
    live view on a terminal.

    On a terminal the default is --pretty: one live line per session with its animator, a
    progress bar, the position in the transition ('at P/D s': progress x duration of the
    duration, also for an interactive session driven long after it began), frames received
    and frames dropped (coalesced by the daemon because this reader was slow).

    options:
      --fps N        frames per second (default: the daemon's, 60)
      --virtual      virtual clock: every frame from t = 0, as fast as they can be read
      --delta        delta frames: after a key frame, each frame holds only what changed
                     (docs/protocol.md, "Delta frames"); the lines are printed as received,
                     the live view shows the rebuilt full frames
      --pretty       the live view, even when standard output is not a terminal
      --no-pretty    NDJSON, even on a terminal
      --count N      stop after N sessions have completed
      --out FILE     write the events to FILE instead of standard output

    exit status:
      0 done (for one SESSION: it finished), 3 the watched SESSION was cancelled,
      5 the daemon stopped or restarted before the watched SESSION completed (it is lost),
      1 the daemon refused (unknown session), 69 the daemon is unreachable

    example:
      transitionctl watch '*' --fps 30
      transitionctl watch s4 --no-pretty | jq -c '.progress'
    """
  static let flags: Set<String> = ["pretty", "no-pretty", "virtual", "delta"]
  static let options: Set<String> = ["fps", "count", "out"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let target =
      try arguments.positionals(minimum: 0, maximum: 1, names: "SESSION", verb: name).first ?? "*"
    let fps = try arguments.number("fps", in: FrameRate.range, verb: name)
    let count = try arguments.number("count", in: 1...1_000_000, verb: name).map { Int($0) }
    if arguments.has("pretty") && arguments.has("no-pretty") {
      throw .usage("--pretty and --no-pretty exclude each other", verb: name)
    }
    let recording = try arguments.value("out").map { path throws(CommandFailure) in
      try OutputWriter(creatingFileAt: path)
    }
    let pretty =
      arguments.has("pretty") || (!arguments.has("no-pretty") && context.output.isTerminal)
    // Where the events go as received: FILE, else standard output unless it shows the view.
    let events = recording ?? (pretty ? nil : context.output)
    let client = try context.connect()
    defer { client.close() }
    var view = WatchView()
    var completed = 0
    let clock: SubscriptionClock? = arguments.has("virtual") ? .virtual : nil
    let encoding: FrameEncoding? = arguments.has("delta") ? .delta : nil
    var lastDraw: ContinuousClock.Instant?
    while true {
      do {
        if pretty {
          for session in try client.sessions() where target == "*" || session.session == target {
            view.describe(
              session: session.session, animator: session.animator,
              operation: session.operation, duration: session.duration)
          }
        }
        _ = try client.subscribe(session: target, fps: fps, clock: clock, encoding: encoding)
        while true {
          let event = try client.nextEvent(timeout: nil)
          var outcome: Int32?
          var forceDraw = false
          switch event {
          case .frame(let frame):
            view.record(frame)
            try events?.line(frame.line)
          case .begin(let begin):
            view.describe(
              session: begin.session, animator: begin.animator, operation: begin.operation,
              duration: begin.duration)
            forceDraw = true
            try events?.line(begin.line)
          case .complete(let complete):
            view.complete(session: complete.session, finished: complete.finished)
            forceDraw = true
            try events?.line(complete.line)
            completed += 1
            if complete.session == target {
              outcome = complete.finished ? ExitCode.success : ExitCode.cancelled
            } else if let count, completed >= count {
              outcome = ExitCode.success
            }
          case .stopping:
            throw ClientError(.closed, "transitiond is stopping")
          case .other(_, _, let line):
            try events?.line(line)
          }
          if pretty {
            let now = ContinuousClock.now
            if forceDraw || outcome != nil
              || lastDraw.map({ now - $0 >= .milliseconds(33) }) ?? true
            {
              try context.output.write(view.redraw())
              lastDraw = now
            }
          }
          if let outcome { return outcome }
        }
      } catch let error as ClientError where error.code == .closed {
        if pretty { try? context.output.write(view.redraw()) }
        guard target == "*" else {
          throw CommandFailure(
            ExitCode.sessionLost,
            "transitiond stopped while session \(target) ran: the session is lost")
        }
        StandardStreams.note(
          "transitiond stopped; watching again once it answers on \(context.socketPath)")
        do { try client.reconnect() } catch { throw CommandFailure(error) }
      } catch {
        throw CommandFailure(any: error)
      }
    }
  }
}
