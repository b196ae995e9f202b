import Glibc
import TransitionClient
import TransitionJSON
import TransitionWire
import UnixIO

/// `transitionctl drive SESSION ACTION`: interactive control of a running session.
enum DriveCommand: Command {
  static let name = "drive"
  static let summary =
    "Drive a session: set progress or a touch, finish, cancel, pause, resume, reverse."
  static let usage = """
    drive SESSION (--progress P | --touch X,Y [--progress P] | --seek P
                         | --finish [--velocity V] [--touch-velocity VX,VY]
                         | --cancel [--velocity V] [--touch-velocity VX,VY]
                         | --pause | --resume | --reverse) [--json]
    drive SESSION --drag X0,Y0:X1,Y1[:X2,Y2...] [--duration S] [--rate HZ]
                         [--release finish|cancel|auto] [--json]
    """
  static let details = """
    Sends one control to SESSION and prints its state and progress afterwards. Start a session
    that waits for control with 'transitionctl play SCENE.json --interactive'.

    actions (exactly one):
      --progress P    set progress to P in [0, 1] while interactive (a finger dragging)
      --touch X,Y     move the finger to X,Y (container points) while interactive: an
                      animator that follows fingers sets progress from the drag (with
                      --progress too, P sets it and the touch only holds the layers)
      --seek P        jump to progress P in [0, 1]
      --finish        animate to the end; --velocity V in progress units per second
      --cancel        animate back to the start; --velocity V likewise
                      --touch-velocity VX,VY: the finger's speed in points per second as it
                      lets go (sets the velocity too when --velocity is not given)
      --pause         freeze the session's clock
      --resume        restart it
      --reverse       run the transition backwards from where it is
      --drag PATH     replay a finger along PATH (container points, X,Y corners joined by
                      ':') at a constant speed, one touch per display refresh, then let go
                      with the path's velocity (the session must be interactive)

    drag options:
      --duration S    seconds from the first corner to the last (default 0.3, at most 60)
      --rate HZ       touches a second, 60 or 120 (default 60)
      --release R     finish (default) or cancel when the finger lets go; auto lets the
                      daemon decide as UIKit's back swipe does (op release: a fling faster
                      than 500 pt/s decides by its direction, otherwise past half-way
                      finishes)

    options:
      --json, -j      print the daemon's reply as JSON

    example:
      transitionctl play config/scenes/album-flip-push.json --interactive &
      transitionctl drive s1 --progress 0.3
      transitionctl drive s1 --finish --velocity 2
      transitionctl play config/scenes/zoom-present-dismiss.json --interactive --touch 195,400 &
      transitionctl drive s1 --touch 200,600
      transitionctl drive s1 --finish --touch-velocity 0,900
      transitionctl play config/scenes/zoom-present-matched-dismiss.json --interactive \\
        --touch 220,420 --session finger &
      transitionctl drive finger --drag 220,420:232,600 --duration 0.25
      transitionctl play config/scenes/default-slide-pop.json --interactive --touch 4,400 \\
        --session back &
      transitionctl drive back --drag 4,400:150,410 --duration 0.2 --release auto
    """
  static let flags: Set<String> = ["json", "finish", "cancel", "pause", "resume", "reverse"]
  static let options: Set<String> = [
    "progress", "seek", "velocity", "touch", "touch-velocity", "drag", "duration", "rate",
    "release",
  ]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let session = try arguments.positionals(minimum: 1, maximum: 1, names: "SESSION", verb: name)[0]
    let result: ControlResult?
    if let drag = try parseDrag(arguments) {
      result = try replay(drag, session: session, json: arguments.has("json"), context)
    } else {
      let action = try parseAction(arguments)
      result = try context.query(
        action.op, action.fields(session: session), json: arguments.has("json"),
        decode: ControlResult.init)
    }
    guard let result else { return ExitCode.success }
    try context.output.line(
      "\(result.session): \(result.state), progress \(NumberText.fixed(result.progress, digits: 3))"
        + (result.followed == "touch" ? " (followed the touch)" : ""))
    return ExitCode.success
  }

  /// A scripted drag: its path, the touches' rate and how the finger lets go.
  struct Drag {
    let path: DragPath
    let rate: Double
    let release: (TouchPoint) -> ControlAction
  }

  /// The drag `--drag` asks for, or nil without it.
  /// - Throws: a usage ``CommandFailure`` for a bad path, duration, rate or release, or
  ///   another action beside it.
  static func parseDrag(_ arguments: ParsedArguments) throws(CommandFailure) -> Drag? {
    guard let text = arguments.options["drag"] else {
      for option in ["duration", "rate", "release"] where arguments.options[option] != nil {
        throw .usage("--\(option) goes with --drag", verb: name)
      }
      return nil
    }
    let others = ["progress", "seek", "velocity", "touch", "touch-velocity"]
    if others.contains(where: { arguments.options[$0] != nil })
      || ["finish", "cancel", "pause", "resume", "reverse"].contains(where: arguments.has)
    {
      throw .usage("'drive' takes exactly one action", verb: name)
    }
    guard let points = DragPath.points(text), points.count >= 2,
      points.count <= DragPath.maximumPoints
    else {
      throw .usage(
        "--drag needs X0,Y0:X1,Y1[:X2,Y2...]: 2 to \(DragPath.maximumPoints) points within ±1000000, got '\(text)'",
        verb: name)
    }
    let duration = try arguments.number("duration", in: 0.001...60, verb: name) ?? 0.3
    let rate = try arguments.number("rate", in: 1...240, verb: name) ?? 60
    guard rate == 60 || rate == 120 else {
      throw .usage("--rate must be 60 or 120, got \(NumberText.compact(rate))", verb: name)
    }
    let release: (TouchPoint) -> ControlAction
    switch arguments.options["release"] ?? "finish" {
    case "finish": release = { .finish(velocity: nil, touchVelocity: $0) }
    case "cancel": release = { .cancel(velocity: nil, touchVelocity: $0) }
    case "auto": release = { .release(touchVelocity: $0) }
    case let other:
      throw .usage("--release must be finish, cancel or auto, got '\(other)'", verb: name)
    }
    guard let path = DragPath(points: points, duration: duration) else {
      throw .usage("--drag: the path cannot be walked in \(duration) s", verb: name)
    }
    return Drag(path: path, rate: rate, release: release)
  }

  /// Sends the drag's touches at their instants on one connection, then lets go.
  ///
  /// - Returns: The state after letting go, or nil when it was printed as JSON.
  static func replay(_ drag: Drag, session: String, json: Bool, _ context: CommandContext)
    throws(CommandFailure) -> ControlResult?
  {
    let release = drag.release(drag.path.releaseVelocity)
    let reply = try context.withClient { client throws(ClientError) in
      let start = MonotonicClock.seconds()
      for sample in drag.path.samples(rate: drag.rate) {
        let wait = start + sample.time - MonotonicClock.seconds()
        if wait > 0 { usleep(UInt32(wait * 1e6)) }
        _ = try client.request(.update, ControlAction.touch(sample.point).fields(session: session))
      }
      return try client.request(release.op, release.fields(session: session))
    }
    if json {
      try context.output.line(JSONOutput.payload(of: reply, adding: [:]))
      return nil
    }
    do { return try ControlResult(reply) } catch { throw CommandFailure(error) }
  }

  /// The one action the arguments name.
  /// - Throws: a usage ``CommandFailure`` when none or several are given, or a value is bad.
  static func parseAction(_ arguments: ParsedArguments) throws(CommandFailure) -> ControlAction {
    var actions: [ControlAction] = []
    let touch = try arguments.point("touch", verb: name)
    let progress = try arguments.number("progress", in: 0...1, verb: name)
    if let touch {
      actions.append(.touch(touch, progress: progress))
    } else if let progress {
      actions.append(.update(progress: progress))
    }
    if let progress = try arguments.number("seek", in: 0...1, verb: name) {
      actions.append(.seek(progress: progress))
    }
    let velocity = try arguments.number("velocity", in: -1000...1000, verb: name)
    let touchVelocity = try arguments.point("touch-velocity", verb: name)
    if arguments.has("finish") {
      actions.append(.finish(velocity: velocity, touchVelocity: touchVelocity))
    }
    if arguments.has("cancel") {
      actions.append(.cancel(velocity: velocity, touchVelocity: touchVelocity))
    }
    if arguments.has("pause") { actions.append(.pause) }
    if arguments.has("resume") { actions.append(.resume) }
    if arguments.has("reverse") { actions.append(.reverse) }
    guard actions.count == 1, let action = actions.first else {
      throw .usage(
        actions.isEmpty
          ? "'drive' needs one action: --progress, --seek, --finish, --cancel, --pause, --resume or --reverse"
          : "'drive' takes exactly one action", verb: name)
    }
    if velocity != nil && action.op != .finish && action.op != .cancel {
      throw .usage("--velocity goes with --finish or --cancel", verb: name)
    }
    if touchVelocity != nil && action.op != .finish && action.op != .cancel {
      throw .usage("--touch-velocity goes with --finish or --cancel", verb: name)
    }
    return action
  }
}
