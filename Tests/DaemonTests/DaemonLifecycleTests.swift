import Foundation
import Glibc
import Testing
import TransitionClient
import UnixIO

@testable import IntegrationSupport

/// Start-up, the socket lock, reload, signals and systemd notifications.
@Suite struct DaemonLifecycleTests {
  @Test func helpAndVersion() throws {
    let help = try DaemonHarness.runProgram(DaemonHarness.product("transitiond"), ["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("--plugin-path"))
    let version = try DaemonHarness.runProgram(DaemonHarness.product("transitiond"), ["--version"])
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("transitiond 0.1.0"))
    let bad = try DaemonHarness.runProgram(DaemonHarness.product("transitiond"), ["--frobnicate"])
    #expect(bad.status == 64)
    #expect(bad.stderr.contains("--frobnicate"))
  }

  @Test func badConfigKeyIsNamed() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for (text, key) in [
      (#"{"limits": {"maxClient": 3}}"#, "limits.maxClient"),
      (#"{"sockt": "/tmp/x"}"#, "sockt"),
      (#"{"defaultFps": 1000}"#, "defaultFps"),
      (#"{"limits": {"maxSessions": -1}}"#, "limits.maxSessions"),
      (#"{"socketMode": 600}"#, "socketMode"),
      (#"{"adminGroup": "no-such-group-for-transitiond"}"#, "adminGroup"),
      (#"{"routes": {"fly": "crossfade"}}"#, "routes.fly"),
      ("[1, 2]", "JSON object"),
    ] {
      let path = directory + "/bad.json"
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      let result = try DaemonHarness.runProgram(
        DaemonHarness.product("transitiond"),
        ["--config", path, "--socket", directory + "/d.sock"])
      #expect(result.status == 78, "\(text)")
      #expect(result.stderr.contains(key), "\(text): \(result.stderr)")
      #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
      #expect(!FileManager.default.fileExists(atPath: directory + "/d.sock"))
    }
  }

  @Test func theShippedConfigStarts() throws {
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { repository.deleteLastPathComponent() }
    let config = repository.appendingPathComponent("config/transitiond.json").path
    let daemon = try DaemonProcess(arguments: ["--config", config])
    let client = try daemon.client()
    #expect(
      try client.routes() == [
        "push": "album-flip", "pop": "album-flip", "present": "zoom-present",
        "dismiss": "zoom-present",
      ])
  }

  @Test func socketDirectoryAndModes() throws {
    func mode(_ path: String) -> mode_t {
      var status = stat()
      return lstat(path, &status) == 0 ? status.st_mode & 0o777 : 0
    }
    let daemon = try DaemonProcess(socketName: "run/inner/d.sock")
    #expect(mode(daemon.directory + "/run") == 0o700)
    #expect(mode(daemon.directory + "/run/inner") == 0o700)
    #expect(mode(daemon.socketPath) == 0o600)
    let shared = try DaemonProcess(config: #"{"socketMode": "0660"}"#)
    #expect(mode(shared.socketPath) == 0o660)
  }

  /// A new temporary directory holding a copy of the daemon's binary (away from the plugins
  /// next to the original) and an empty `run` directory to start it in; returns the
  /// directory and the binary's path.
  private func directoryWithACopyOfTheDaemon() throws -> (directory: String, binary: String) {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    let binary = directory + "/transitiond"
    try FileManager.default.copyItem(atPath: DaemonHarness.product("transitiond"), toPath: binary)
    try FileManager.default.createDirectory(
      atPath: directory + "/run", withIntermediateDirectories: false)
    return (directory, binary)
  }

  @Test func noAnimatorsAtAllStillStartsWithTheBuiltInFallbackAndSaysWhy() throws {
    let (directory, binary) = try directoryWithACopyOfTheDaemon()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try FileManager.default.createDirectory(
      atPath: directory + "/empty", withIntermediateDirectories: false)
    let daemon = try DaemonProcess.startCopy(
      binary, arguments: ["--animator-path", directory + "/empty"], directory: directory + "/run",
      pluginPath: directory + "/empty")
    let listing = try daemon.client().rawReply(["op": "animators"])
    let names = listing.fields["animators"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
    #expect(names == ["default-slide"], "\(listing.line)")
    let missing = try #require(listing.fields["missing"]?.stringValue, "\(listing.line)")
    #expect(missing.contains("searched for plugins: \(directory)/empty"), "\(missing)")
    #expect(daemon.log.contains(missing), "\(daemon.log)")
  }

  /// The harness's own contract, which the test above relies on: a start that waits for a
  /// copied binary still open for writing (`ETXTBSY`) keeps the directory it was given, so the
  /// daemon that finally starts writes its log there.
  @Test func aStartThatWaitsForABusyBinaryKeepsItsDirectoryAndLog() throws {
    let (directory, binary) = try directoryWithACopyOfTheDaemon()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    // Held open for writing until a start has failed with ETXTBSY, then closed.
    var writer = open(binary, O_WRONLY | O_CLOEXEC)
    try #require(writer >= 0)
    var busyStarts = 0
    let daemon = try DaemonProcess.startCopy(
      binary, directory: directory + "/run", pluginPath: DaemonHarness.productsDirectory,
      whenBusy: {
        busyStarts += 1
        if writer >= 0 {
          close(writer)
          writer = -1
        }
      })
    #expect(busyStarts >= 1)
    #expect(FileManager.default.fileExists(atPath: directory + "/run/daemon.log"))
    #expect(try daemon.client().hello().pid == Int(daemon.pid))
    #expect(DaemonHarness.waitUntil { daemon.log.contains("loaded plugin") }, "\(daemon.log)")
  }

  @Test func secondInstanceRefusesAndTheFirstKeepsServing() throws {
    let daemon = try DaemonProcess()
    let result = try DaemonHarness.runProgram(
      DaemonHarness.product("transitiond"),
      ["--socket", daemon.socketPath, "--plugin-path", DaemonHarness.productsDirectory])
    #expect(result.status == 69)
    #expect(result.stderr.contains("another transitiond is running on \(daemon.socketPath)"))
    #expect(try daemon.client().hello().pid == Int(daemon.pid))
  }

  @Test func aFileThatIsNotASocketIsLeftAlone() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/d.sock"
    try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
    let result = try DaemonHarness.runProgram(
      DaemonHarness.product("transitiond"),
      ["--socket", path, "--plugin-path", DaemonHarness.productsDirectory])
    #expect(result.status == 78)
    #expect(result.stderr.contains("is not a socket"))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
  }

  @Test func staleSocketIsReplaced() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    // A socket file left behind by a process that died without removing it.
    let path = directory + "/d.sock"
    let descriptor = try UnixSocket.bind(path: path)
    close(descriptor)
    #expect(FileManager.default.fileExists(atPath: path))
    let daemon = try DaemonProcess(directory: directory)
    #expect(try daemon.client().hello().server == "transitiond")
  }

  @Test func sigtermTellsSubscribersAndRemovesSocketAndLock() throws {
    let daemon = try DaemonProcess()
    let watcher = try daemon.client()
    let session = try watcher.begin(context: DaemonScenes.plainPush(), interactive: true).session
    _ = try watcher.subscribe(session: session, fps: 30)
    daemon.send(SIGTERM)
    var sawStopping = false
    while !sawStopping {
      if case .stopping = try watcher.event() { sawStopping = true }
    }
    #expect(try daemon.waitForExit() == 0)
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath + ".lock"))
    #expect(daemon.log.contains("stopping (SIGTERM)"))
  }

  @Test func sigintStopsCleanly() throws {
    let daemon = try DaemonProcess()
    _ = try daemon.client().hello()
    daemon.send(SIGINT)
    #expect(try daemon.waitForExit() == 0)
    #expect(daemon.log.contains("stopping (SIGINT)"))
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
  }

  @Test func reloadKeepsSessionsAndAppliesRoutes() throws {
    let daemon = try DaemonProcess(config: #"{"logLevel": "info"}"#)
    let client = try daemon.client()
    let session = try client.begin(context: DaemonScenes.plainPush(), interactive: true).session
    _ = try client.control(session: session, action: .update(progress: 0.3))
    try #"{"routes": {"push": "default-slide"}}"#.write(
      toFile: try #require(daemon.configPath), atomically: true, encoding: .utf8)
    #expect(try client.reload() >= 4)
    #expect(try client.routes()["push"] == "default-slide")
    let kept = try #require(try client.sessions().first)
    #expect(kept.session == session)
    #expect(kept.progress == 0.3)
    #expect(try client.control(session: session, action: .update(progress: 0.6)).progress == 0.6)
  }

  @Test func invalidConfigOnReloadIsRefusedAndTheOldStays() throws {
    let daemon = try DaemonProcess(config: #"{"routes": {"present": "crossfade"}}"#)
    let client = try daemon.client()
    let session = try client.begin(context: DaemonScenes.plainPush(), interactive: true).session
    try #"{"routes": {"present": "crossfade"}, "limits": {"maxSession": 1}}"#.write(
      toFile: try #require(daemon.configPath), atomically: true, encoding: .utf8)
    let reply = try client.rawReply(["op": "reload"])
    #expect(reply.errorCode == "reload_failed")
    #expect(reply.errorMessage?.contains("limits.maxSession") == true)
    #expect(try client.routes()["present"] == "crossfade")
    #expect(try client.sessions().map(\.session) == [session])
  }

  @Test func sighupReloads() throws {
    let daemon = try DaemonProcess(config: "{}")
    let client = try daemon.client()
    let session = try client.begin(context: DaemonScenes.plainPush(), interactive: true).session
    try #"{"routes": {"pop": "default-slide"}}"#.write(
      toFile: try #require(daemon.configPath), atomically: true, encoding: .utf8)
    daemon.send(SIGHUP)
    let switched = try DaemonHarness.waitUntil { try client.routes()["pop"] == "default-slide" }
    #expect(switched)
    #expect(try client.sessions().map(\.session) == [session])
  }

  /// A datagram socket bound in `directory`, standing in for systemd's `NOTIFY_SOCKET`.
  final class NotifySocket {
    let path: String
    private let descriptor: Int32

    init(directory: String) throws {
      path = directory + "/notify.sock"
      descriptor = try UnixSocket.bind(path: path, type: Int32(SOCK_DGRAM.rawValue))
      var timeout = timeval(tv_sec: 20, tv_usec: 0)
      setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// The next datagram; empty after 20 s without one.
    func receive() -> String {
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = recv(descriptor, &buffer, buffer.count, 0)
      return count > 0 ? String(decoding: buffer[0..<count], as: UTF8.self) : ""
    }
  }

  @Test func systemdNotifications() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    let notify = try NotifySocket(directory: directory)
    func receive() -> String { notify.receive() }
    let daemon = try DaemonProcess(
      environment: ["NOTIFY_SOCKET": notify.path], directory: directory)
    #expect(receive() == "READY=1")
    daemon.send(SIGHUP)
    let reloading = receive()
    #expect(reloading.hasPrefix("RELOADING=1\nMONOTONIC_USEC="))
    #expect(receive() == "READY=1")
    daemon.send(SIGTERM)
    #expect(receive() == "STOPPING=1")
    #expect(try daemon.waitForExit() == 0)
  }

  @Test func systemdWatchdogIsPingedWhileTheLoopTurns() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    let notify = try NotifySocket(directory: directory)
    let daemon = try DaemonProcess(
      environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"],
      directory: directory)
    #expect(notify.receive() == "READY=1")
    for _ in 0..<3 { #expect(notify.receive() == "WATCHDOG=1") }
    #expect(daemon.log.contains("systemd watchdog: WATCHDOG=1 every 0.1 s"))
    daemon.send(SIGTERM)
    var last = ""
    while last == "WATCHDOG=1" || last.isEmpty {
      last = notify.receive()
      if last.isEmpty { break }
    }
    #expect(last == "STOPPING=1")
  }

  @Test func theWatchdogOfAnotherProcessIsNotPinged() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    let notify = try NotifySocket(directory: directory)
    let daemon = try DaemonProcess(
      environment: [
        "NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1",
      ],
      directory: directory)
    #expect(notify.receive() == "READY=1")
    _ = try daemon.client().hello()
    daemon.send(SIGTERM)
    #expect(notify.receive() == "STOPPING=1")
    #expect(!daemon.log.contains("systemd watchdog"))
  }
}
