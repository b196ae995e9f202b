import DaemonSupport
import Foundation
import Glibc
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// One plugin host per library, against the real daemon: a library that spins or crashes is
/// killed and restarted alone while the other libraries' hosts answer.
extension DaemonPluginIsolationTests {
  /// While the faulty library spins in its `make_timeline`, crossfade's `begin` is answered by
  /// crossfade itself (its own host was never behind the spinning call) and its frames come;
  /// the spinning call alone falls back, at its deadline.
  @Test func aLibraryThatSpinsNeverDelaysAnotherLibrarysBegin() throws {
    let directory = try FaultyPlugin.infiniteLoop.build()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let daemon = try DaemonProcess(config: Self.config, arguments: ["--plugin-path", directory])
    let spinning = try daemon.client()
    let faultyHost = try #require(try Self.hostPID(spinning, serving: "libFaulty.so"))
    let crossfadeHost = try #require(try Self.hostPID(spinning, serving: "libCrossfade.so"))
    #expect(faultyHost != crossfadeHost)
    let spinningBegin = try spinning.send([
      "op": "begin", "context": .object(DaemonScenes.plainPush()),
      "animator": .string(FaultyPlugin.animatorName),
    ])
    // The faulty host is in its loop once it has burnt CPU time on the call.
    #expect(
      DaemonHarness.waitUntil { (Self.cpuSeconds(of: faultyHost) ?? 0) >= 0.05 },
      "the faulty host never spun")

    let client = try daemon.client()
    let started = Date()
    let reply = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.present()), "animator": "crossfade",
    ])
    let elapsed = Date().timeIntervalSince(started)
    #expect(reply.ok, "\(reply.line)")
    #expect(reply.fields["animator"]?.stringValue == "crossfade", "\(reply.line)")
    #expect(reply.fields["fallback"]?.boolValue == false, "\(reply.line)")
    // Answered by crossfade: within its own call deadline (a fallback would say otherwise).
    let deadline = Self.callTimeout * PluginHostSettings.sanitizerSlowdown
    #expect(elapsed < deadline, "answered after \(elapsed) s")
    // Played by itself: its frames come, to the end.
    let session = try #require(reply.fields["session"]?.stringValue)
    _ = try client.subscribe(session: session, fps: 30, clock: .virtual)
    let (frames, finished) = try client.framesUntilComplete(session: session)
    #expect(finished)
    #expect(frames.count > 2 && frames.last?.progress == 1, "\(frames.count) frames")

    // The spinning call alone times out, and only its host is restarted.
    let timedOut = try spinning.reply(to: spinningBegin, timeout: .seconds(20))
    #expect(timedOut.fields["fallbackReason"]?.stringValue == "timeout", "\(timedOut.line)")
    #expect(try Self.hostPID(client, serving: "libCrossfade.so") == crossfadeHost)
    try Self.expectHostBack(daemon)
    #expect(try Self.hostPID(client, serving: "libFaulty.so") != faultyHost)
  }

  /// A crash in the faulty library's host leaves another library's running session, its
  /// frames, its host and every other animator in place.
  @Test func aCrashInOneHostLeavesTheOthersSessionsAndAnimators() throws {
    let directory = try FaultyPlugin.segfault.build()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let daemon = try DaemonProcess(arguments: ["--plugin-path", directory])
    let client = try daemon.client()
    let before = try Self.catalog(client)
    #expect(before.contains("crossfade") && before.contains(FaultyPlugin.animatorName))
    let cubeHost = try #require(try Self.hostPID(client, serving: "libCubeTurn.so"))
    let faultyStarts = try Self.host(client, serving: "libFaulty.so")?["starts"]?.numberValue
    // A cube-turn session that waits for interaction: it lives through the crash.
    let running = try client.begin(
      context: DaemonScenes.present(), animator: "cube-turn", duration: 0.5, interactive: true)
    #expect(running.animator == "cube-turn" && !running.fallback)

    let crashed = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.plainPush()),
      "animator": .string(FaultyPlugin.animatorName),
    ])
    #expect(crashed.fields["fallbackReason"]?.stringValue == "crashed", "\(crashed.line)")
    #expect(try Self.catalog(client) == before)
    #expect(try Self.hostPID(client, serving: "libCubeTurn.so") == cubeHost)
    let sessions = try client.rawReply(["op": "sessions"]).fields["sessions"]?.arrayValue ?? []
    #expect(sessions.contains { $0["session"]?.stringValue == running.session })
    // The session plays to its end with its own animator's frames.
    _ = try client.subscribe(session: running.session, fps: 30, clock: .virtual)
    #expect(try client.control(session: running.session, action: .resume).state == "running")
    let (frames, finished) = try client.framesUntilComplete(session: running.session)
    #expect(finished && frames.last?.progress == 1, "\(frames.count) frames")
    try Self.expectHostBack(daemon)
    let restarted = try Self.host(client, serving: "libFaulty.so")?["starts"]?.numberValue
    #expect((restarted ?? 0) > (faultyStarts ?? 0))
    #expect(try Self.host(client, serving: "libCubeTurn.so")?["starts"]?.numberValue == 1)
  }

  /// `reload` after a library is removed stops its host alone; after it comes back, a new host
  /// loads it; the other hosts keep their processes throughout.
  @Test func reloadStartsAndStopsOnlyTheHostOfALibraryAddedOrRemoved() throws {
    let directory = try FaultyPlugin.blocksSignals.build()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let daemon = try DaemonProcess(arguments: ["--plugin-path", directory])
    let client = try daemon.client()
    let crossfadeHost = try #require(try Self.hostPID(client, serving: "libCrossfade.so"))
    let faultyHost = try #require(try Self.hostPID(client, serving: "libFaulty.so"))
    let library = directory + "/libFaulty.so"
    let aside = directory + "/faulty.so.aside"
    #expect(rename(library, aside) == 0)
    #expect(try client.rawReply(["op": "reload"]).ok)
    #expect(try Self.host(client, serving: "libFaulty.so") == nil)
    #expect(!(try Self.catalog(client)).contains(FaultyPlugin.animatorName))
    #expect(DaemonHarness.waitUntil { kill(faultyHost, 0) != 0 }, "the removed host runs on")

    #expect(rename(aside, library) == 0)
    #expect(try client.rawReply(["op": "reload"]).ok)
    #expect(try Self.catalog(client).contains(FaultyPlugin.animatorName))
    let back = try #require(try Self.hostPID(client, serving: "libFaulty.so"))
    #expect(back != faultyHost)
    #expect(try Self.hostPID(client, serving: "libCrossfade.so") == crossfadeHost)
  }

  /// Two libraries that serve one name, each in its own host: the first in search path order
  /// serves it, the other's is refused with the reason, in the log and in `reload`'s reply.
  @Test func aNameTwoHostsServeIsServedByTheFirstInSearchPathOrder() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    chmod(directory, 0o755)
    let copy = directory + "/libCrossfadeCopy.so"
    try FileManager.default.copyItem(
      atPath: DaemonHarness.product("libCrossfade.so"), toPath: copy)
    chmod(copy, 0o644)
    // The harness's own plugin path, the build's products, comes before `--plugin-path`.
    let daemon = try DaemonProcess(arguments: ["--plugin-path", directory])
    let client = try daemon.client()
    let built = try #require(realpath(DaemonHarness.product("libCrossfade.so"), nil))
    defer { free(built) }
    let listing = try client.rawReply(["op": "animators"])
    let crossfades = (listing.fields["animators"]?.arrayValue ?? []).filter {
      $0["name"]?.stringValue == "crossfade"
    }
    #expect(
      crossfades.map { $0["path"]?.stringValue } == [String(cString: built)], "\(listing.line)")
    let refusal =
      "animator crossfade of plugin \(copy) is refused: the name is already taken by "
      + String(cString: built)
    #expect(DaemonHarness.waitUntil { daemon.log.contains(refusal) }, "\(daemon.log)")
    let reload = try client.rawReply(["op": "reload"])
    let codes = reload.fields["diagnostics"]?.arrayValue?.compactMap { $0["code"]?.stringValue }
    #expect(codes?.contains("duplicate_animator") == true, "\(reload.line)")
    let begin = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.present()), "animator": "crossfade",
    ])
    #expect(begin.fields["fallback"]?.boolValue == false, "\(begin.line)")
  }

  // MARK: Helpers

  /// The names `animators` lists, in order.
  static func catalog(_ client: DaemonClient) throws -> [String] {
    let listing = try client.rawReply(["op": "animators"])
    return (listing.fields["animators"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
  }

  /// The CPU time `pid` has used, from `/proc/PID/stat`; nil once it is gone.
  static func cpuSeconds(of pid: pid_t) -> Double? {
    guard let stat = try? procFile("/proc/\(pid)/stat"),
      let close = stat.lastIndex(of: ")")
    else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12])
    else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
