import TransitionClient
import TransitionJSON
import TransitionWire

/// `transitionctl play SCENE.json`: begins a session from a scene file and streams its frames.
enum PlayCommand: Command {
  static let name = "play"
  static let summary = "Begin a session from a scene file and record its frames as NDJSON."
  static let usage = """
    play SCENE.json [--animator NAME | --route] [--duration S] [--fps N]
                         [--virtual] [--interactive [--touch X,Y]] [--session ID] [--out FILE]
                         [--delta [--key-every N]] [--loop] [--watch] [--reduce-motion]
                         [--interrupts ID]
    """
  static let details = """
    Reads SCENE.json (a transition context: operation, container, from and to screens with
    their layers, selected; see config/scenes/), begins a session with it, subscribes to the
    session and writes a recording to standard output or FILE: the session's begin event
    (container, animator, clock, fps), every frame and the complete event, one JSON object a
    line exactly as the daemon sent them. The recording replays with no daemon (the viewer
    page opens it, docs/viewer.md). A scene may carry "animator", "duration" and
    "interactive" (the options below override them), "description", and "hints" for the
    animator; any other key is refused, and errors name fields as the file writes them.

    options:
      --animator NAME   use this animator instead of the operation's route
      --route           use the operation's current route, whatever the scene's "animator"
                        says (after 'transitionctl use push NAME', to play a scene with NAME)
      --duration S      run for S seconds instead of the animator's duration
      --fps N           frames per second (default: the daemon's, 60)
      --virtual         virtual clock: every frame at t = k/N from 0 to the end, as fast
                        as they can be written (for offline rendering), not in real time
      --interactive     begin the session interactive: it waits for 'transitionctl drive';
                        its id is printed on standard error
      --touch X,Y       with --interactive: the finger went down at X,Y (container points);
                        'transitionctl drive ID --touch X,Y' then drags it
      --session ID      name the session ID instead of the daemon's sN
      --out FILE        write the recording to FILE instead of standard output; FILE is
                        replaced only once the session began (a refused scene leaves it
                        as it was)
      --delta           subscribe with delta frames and record them as they come: after a
                        key frame, each frame holds only what changed (docs/protocol.md,
                        "Delta frames"); smaller files, read by the viewer page
      --key-every N     with --delta: a key frame at least every N frames (default 30), so
                        that a player can seek from the key frame before any frame
      --loop            play the scene again whenever its session completes, reading the
                        scene file again each time, until Ctrl-C (which ends the running
                        session); the recordings follow one another, and --out FILE holds
                        the latest; a line on standard error names each round's session;
                        a restart of the daemon is waited out
      --watch           --loop, and also play again at once, ending the running session,
                        when the scene file or the data animator file that serves it changes
                        (after the daemon has reloaded the animator): edit either file in
                        an editor and the live viewer shows the change (docs/viewer.md,
                        "The authoring loop")

      --reduce-motion   play the reduced form, as for a person who turned on reduced
                        motion (docs/protocol.md, "Reduced motion"): the animator's own, or
                        the daemon's cross-fade
      --interrupts ID   interrupt the running session ID: it ends at once, and this one
                        starts from its layers as presented, their velocity kept
                        (docs/protocol.md, "Interruption"); not with --loop or --watch

    exit status:
      0 the session finished (with --loop: ended by Ctrl-C), 3 it was cancelled, 4 it
      finished but the animator the scene or --animator named did not serve it (it declined,
      failed, crashed or is quarantined: the daemon's fallback played it, and the reason is
      printed on standard error), 5 the daemon stopped or restarted during the session and
      the session is lost, 1 the daemon refused it, 65 the scene file is invalid, 66 it
      cannot be read, 69 the daemon is unreachable, 73 FILE cannot be created

    examples:
      transitionctl play config/scenes/album-flip-push.json --virtual --fps 30 --out flip.ndjson
      transitionctl play config/scenes/album-flip-push.json --watch > /dev/null
    """
  static let flags: Set<String> = [
    "virtual", "interactive", "route", "delta", "loop", "watch", "reduce-motion",
  ]
  static let options: Set<String> = [
    "animator", "duration", "fps", "session", "out", "touch", "key-every", "interrupts",
  ]

  /// How often `--delta` recordings carry a key frame when `--key-every` does not say.
  static let defaultKeyEvery = 30

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let path = try arguments.positionals(
      minimum: 1, maximum: 1, names: "a SCENE.json file", verb: name)[0]
    let fps = try arguments.number("fps", in: FrameRate.range, verb: name)
    let duration = try arguments.number("duration", in: 0.001...3600, verb: name)
    if arguments.has("route"), arguments.value("animator") != nil {
      throw CommandFailure(ExitCode.usage, "play: give --animator NAME or --route, not both")
    }
    let keyEvery = try arguments.number("key-every", in: 1...1_000_000, verb: name)
    if keyEvery != nil, !arguments.has("delta") {
      throw CommandFailure(ExitCode.usage, "play: --key-every needs --delta")
    }
    if let keyEvery, keyEvery != keyEvery.rounded() {
      throw CommandFailure(ExitCode.usage, "play: --key-every must be a whole number of frames")
    }
    let keyFrames = arguments.has("delta") ? Int(keyEvery ?? Double(defaultKeyEvery)) : nil
    let scene = try SceneFile(path: path)
    let animator = arguments.has("route") ? nil : arguments.value("animator") ?? scene.animator
    let interactive = arguments.has("interactive") ? true : scene.interactive
    let touch = try arguments.point("touch", verb: name)
    if touch != nil, interactive != true {
      throw .usage("--touch goes with --interactive", verb: name)
    }
    let clock: SubscriptionClock? = arguments.has("virtual") ? .virtual : nil
    if arguments.has("loop") || arguments.has("watch") {
      if arguments.value("interrupts") != nil {
        throw CommandFailure(ExitCode.usage, "play: --interrupts goes without --loop and --watch")
      }
      var loop = PlayLoop(
        scene: scene,
        round: PlayLoop.Round(
          animator: arguments.value("animator"), route: arguments.has("route"),
          duration: duration, interactive: arguments.has("interactive"),
          session: arguments.value("session"), touch: touch,
          reduceMotion: arguments.has("reduce-motion") ? true : nil, fps: fps, clock: clock,
          keyEvery: keyFrames, out: arguments.value("out")),
        watch: arguments.has("watch"), context: context)
      return try loop.run()
    }
    // The recording replaces FILE only once the daemon has begun the session: a refusal
    // leaves what was there.
    let file = try arguments.value("out").map { path throws(CommandFailure) in
      try ReplacementFile(replacing: path)
    }
    let output = file?.writer ?? context.output
    let client = try context.connect()
    defer { client.close() }

    let started = try begin(
      scene, client: client, animator: animator, duration: duration ?? scene.duration,
      interactive: interactive, session: arguments.value("session"), touch: touch,
      reduceMotion: arguments.has("reduce-motion") ? true : nil,
      interrupts: arguments.value("interrupts"))
    try file?.commit()
    if interactive == true {
      StandardStreams.note(
        "session \(started.session) (\(started.animator) \(scene.operation)) waits for control: "
          + "transitionctl drive \(started.session) --progress P | --touch X,Y | --finish | --cancel"
      )
    }
    let status = try stream(
      session: started.session, client: client, fps: fps,
      clock: clock, keyEvery: keyFrames, to: output)
    // A named animator that did not serve is worth a status of its own; a routed one falling
    // back is the daemon working as designed.
    if status == ExitCode.success, started.fallback, animator != nil {
      return ExitCode.playedByFallback
    }
    return status
  }

  /// Begins a session from `scene` and says on standard error when the chosen animator did
  /// not serve it and the fallback plays it, and why.
  ///
  /// - Throws: ``ExitCode/dataError`` naming the scene and the field (from the scene's root)
  ///   when the daemon finds its context invalid, the client error's status otherwise.
  static func begin(
    _ scene: SceneFile, client: DaemonClient, animator: String?, duration: Double?,
    interactive: Bool?, session: String?, touch: TouchPoint? = nil, reduceMotion: Bool? = nil,
    interrupts: String? = nil
  ) throws(CommandFailure) -> BeginResult {
    let path = scene.path
    let started: BeginResult
    do {
      started = try client.begin(
        context: scene.context, animator: animator, duration: duration,
        interactive: interactive, session: session, touch: touch, reduceMotion: reduceMotion,
        interrupts: interrupts)
    } catch  where error.daemonCode == WireError.Code.invalidContext.rawValue {
      // The daemon names fields under the request's `context`; the scene writes them from its
      // root.
      let message =
        error.message.hasPrefix("context.")
        ? String(error.message.dropFirst("context.".count)) : error.message
      throw CommandFailure(ExitCode.dataError, "\(path): invalid_context: \(message)")
    } catch {
      throw CommandFailure(error)
    }
    if started.fallback {
      let what = started.fallbackMessage ?? "the chosen animator did not serve \(path)"
      let reason = started.fallbackReason.map { " (\($0))" } ?? ""
      StandardStreams.note("\(what)\(reason); \(started.animator) plays \(path) instead")
    }
    return started
  }

  /// Subscribes to `session` and writes its recording (``SessionRecording``) until it
  /// completes.
  ///
  /// - Returns: ``ExitCode/success`` when it finished, ``ExitCode/cancelled`` when cancelled.
  /// - Throws: ``ExitCode/sessionLost`` when the daemon stops or goes away first.
  static func stream(
    session: String, client: DaemonClient, fps: Double?, clock: SubscriptionClock?,
    keyEvery: Int? = nil, to output: OutputWriter
  ) throws(CommandFailure) -> Int32 {
    var recording = try SessionRecording(
      session: session, client: client, fps: fps, clock: clock, keyEvery: keyEvery)
    // With nothing else to watch, only the session's end stops the recording.
    return try recording.record(from: client, to: output)!
  }
}
