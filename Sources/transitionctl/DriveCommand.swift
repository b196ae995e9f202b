import TransitionClient
import TransitionJSON
import TransitionWire

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

    options:
      --json, -j      print the daemon's reply as JSON

    example:
      transitionctl play config/scenes/album-flip-push.json --interactive &
      transitionctl drive s1 --progress 0.3
      transitionctl drive s1 --finish --velocity 2
      transitionctl play config/scenes/zoom-present-dismiss.json --interactive --touch 195,400 &
      transitionctl drive s1 --touch 200,600
      transitionctl drive s1 --finish --touch-velocity 0,900
    """
  static let flags: Set<String> = ["json", "finish", "cancel", "pause", "resume", "reverse"]
  static let options: Set<String> = ["progress", "seek", "velocity", "touch", "touch-velocity"]

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let session = try arguments.positionals(minimum: 1, maximum: 1, names: "SESSION", verb: name)[0]
    let action = try parseAction(arguments)
    guard
      let result = try context.query(
        action.op, action.fields(session: session), json: arguments.has("json"),
        decode: ControlResult.init)
    else { return ExitCode.success }
    try context.output.line(
      "\(result.session): \(result.state), progress \(NumberText.fixed(result.progress, digits: 3))"
        + (result.followed == "touch" ? " (followed the touch)" : ""))
    return ExitCode.success
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
