import TransitionClient
import TransitionWire

/// `play --loop` and `play --watch`: the live authoring loop. The scene is played, and played
/// again whenever its session completes; with `watch`, also at once (the running session ended)
/// when the scene file or the data animator file that serves it changes.
///
/// Each round re-reads the scene file, so an edit shows at the next round even without
/// `watch`; a scene that no longer reads is reported in one line and the last good one plays
/// on. After a change of the animator's file, the round waits until the daemon (which reloads
/// data animators by itself) lists the file's new version (``FileVersion``), so that the new
/// round plays the edit and not the version before it. Ctrl-C (or SIGTERM, SIGHUP) ends the
/// running session and exits 0. A daemon that stops or restarts does not end the loop: it says
/// so once and plays the scene again when the daemon is back.
struct PlayLoop {
  /// How `run` begins each round: everything `play` read from its command line.
  struct Round {
    /// `--animator NAME`; else the scene's, unless `route`.
    var animator: String?
    /// `--route`: the operation's route, whatever the scene names.
    var route: Bool
    /// `--duration S`; else the scene's.
    var duration: Double?
    /// `--interactive`; else the scene's.
    var interactive: Bool
    var session: String?
    var touch: TouchPoint?
    /// `--reduce-motion`: true; nil leaves it to the scene and the daemon.
    var reduceMotion: Bool?
    var fps: Double?
    var clock: SubscriptionClock?
    var keyEvery: Int?
    /// `--out FILE`: each round's recording replaces it once the round has begun.
    var out: String?
  }

  /// The scene as last read successfully.
  var scene: SceneFile
  let round: Round
  /// Whether changes of the scene and animator files replay at once.
  let watch: Bool
  let context: CommandContext

  /// The longest wait for the daemon to read an edited animator file before the round plays
  /// anyway (it reads one within about 0.2 s of the save).
  static let reloadBound: Duration = .seconds(5)

  /// Runs rounds until interrupted.
  ///
  /// - Returns: ``ExitCode/success`` after Ctrl-C.
  /// - Throws: the failure of the first round (a refused scene, an unreachable daemon), or of
  ///   writing the output.
  mutating func run() throws(CommandFailure) -> Int32 {
    let interrupt = try InterruptSignal.install()
    let watcher = watch ? try FileChangeWatcher() : nil
    let client = try context.connect()
    defer { client.close() }
    var rounds = 0
    // The data animator file of the last round, still watched while a round cannot begin.
    var animatorFile: String?
    while !InterruptSignal.arrived {
      if rounds > 0 { rereadScene() }
      let file = try round.out.map { path throws(CommandFailure) in
        try ReplacementFile(replacing: path)
      }
      let started: BeginResult
      do {
        started = try PlayCommand.begin(
          scene, client: client, animator: round.route ? nil : round.animator ?? scene.animator,
          duration: round.duration ?? scene.duration,
          interactive: round.interactive ? true : scene.interactive,
          session: round.session, touch: round.touch, reduceMotion: round.reduceMotion)
      } catch {
        // The first round's refusal is the command's; later ones (an animator file that no
        // longer serves, a scene edited into one the daemon refuses) wait for the next edit.
        guard rounds > 0, let watcher else { throw error }
        StandardStreams.note("\(error.message); waiting for a change")
        try watcher.watch([scene.path] + (animatorFile.map { [$0] } ?? []))
        guard waitForChange(watcher, interrupt: interrupt) else { break }
        continue
      }
      try file?.commit()
      rounds += 1
      StandardStreams.note(
        "round \(rounds): session \(started.session) (\(started.animator) \(scene.operation))")
      if let watcher {
        animatorFile = dataAnimatorFile(started.animator, client: client)
        try watcher.watch([scene.path] + (animatorFile.map { [$0] } ?? []))
      }
      var recording = try SessionRecording(
        session: started.session, client: client, fps: round.fps, clock: round.clock,
        keyEvery: round.keyEvery)
      let output = file?.writer ?? context.output
      let others = [interrupt] + (watcher.map { [$0.descriptor] } ?? [])
      do {
        while try recording.record(from: client, to: output, orReadable: others) == nil {
          if InterruptSignal.arrived {
            try end(&recording, client: client, output: output)
            return ExitCode.success
          }
          guard let watcher else { continue }
          let changed = watcher.changedFiles()
          guard !changed.isEmpty else { continue }
          try end(&recording, client: client, output: output)
          if let animatorFile, changed.contains(FileChangeWatcher.realPath(animatorFile)) {
            awaitDaemonRead(animator: started.animator, file: animatorFile, client: client)
          }
          break
        }
      } catch  where error.exitCode == ExitCode.sessionLost {
        StandardStreams.note("\(error.message); playing again once transitiond is back")
        do {
          guard try client.reconnect(orReadable: [interrupt]) else { break }
        } catch {
          throw CommandFailure(error)
        }
      }
    }
    return ExitCode.success
  }

  /// Reads the scene file again; one that no longer reads is reported and the last good
  /// scene stays.
  private mutating func rereadScene() {
    do {
      scene = try SceneFile(path: scene.path)
    } catch {
      StandardStreams.note("\(error.message); playing the scene as it was")
    }
  }

  /// The file of the data animator `name`, from the daemon's `animators` listing (nil for a
  /// library, or when the listing cannot be had).
  private func dataAnimatorFile(_ name: String, client: DaemonClient) -> String? {
    let listed = (try? client.animators())?.animators.first { $0.name == name }
    guard let listed, listed.fileVersion != nil else { return nil }
    return listed.path
  }

  /// Ends the recording's session at once, as its own client may (seek to 0, then cancel: no
  /// way left to go), and records it to its `complete` event.
  private func end(
    _ recording: inout SessionRecording, client: DaemonClient, output: OutputWriter
  ) throws(CommandFailure) {
    for action in [ControlAction.seek(progress: 0), .cancel(velocity: nil)] {
      // Refused when the session has completed meanwhile: its complete event is on the way.
      do { _ = try client.control(session: recording.session, action: action) } catch {
        if error.code != .protocolError { throw CommandFailure(error) }
        break
      }
    }
    _ = try recording.record(from: client, to: output)
  }

  /// Waits (asking the daemon's `animators` listing) until the daemon has read `file` as it is
  /// now, then says so when that version does not validate (the last good one plays); after
  /// ``reloadBound`` it says that it plays on without.
  private func awaitDaemonRead(animator name: String, file: String, client: DaemonClient) {
    let deadline = ContinuousClock.now + Self.reloadBound
    while ContinuousClock.now < deadline, !InterruptSignal.arrived {
      let now = FileVersion.of(path: file)
      guard let listing = try? client.animators() else { return }
      let listed = listing.animators.first { $0.name == name }
      if listed == nil, now == nil { return }  // The file and its animator are gone.
      if let listed, listed.fileVersion == now {
        if let error = listed.error {
          StandardStreams.note("\(error); the last good version plays")
        }
        return
      }
      _ = DescriptorPoll.firstReadable([InterruptSignal.descriptor], within: .milliseconds(20))
    }
    if !InterruptSignal.arrived {
      StandardStreams.note("transitiond has not read \(file) yet; playing on")
    }
  }

  /// Waits for a change of a watched file (true) or for Ctrl-C (false).
  private func waitForChange(_ watcher: FileChangeWatcher, interrupt: Int32) -> Bool {
    while DescriptorPoll.firstReadable([interrupt, watcher.descriptor], within: nil)
      == watcher.descriptor
    {
      if !watcher.changedFiles().isEmpty { return true }
    }
    return false
  }
}
