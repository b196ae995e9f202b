import Foundation
import Testing
import TransitionClient
import TransitionJSON
import TransitionWire

@testable import IntegrationSupport

/// The client library that `transitionctl` is built on, against the real daemon: replies by
/// id, events queued while a reply is awaited, typed protocol errors.
@Suite("TransitionClient against transitiond", .serialized)
struct TransitionctlClientLibraryTests {
  @Test("hello names the server and protocol 1")
  func hello() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let info = try client.hello()
    #expect(info.server == "transitiond")
    #expect(info.protocolVersion == 1)
    #expect(info.pid == Int(daemon.launcher.pid))
  }

  @Test("replies are matched to their requests by id, even when read out of order")
  func repliesMatchedByID() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let first = try client.send(["op": "routes"])
    let second = try client.send(["op": "hello"])
    let third = try client.send(["op": "sessions"])
    #expect(second == first + 1)
    #expect(third == first + 2)
    // Ask for the last one first: the others are kept for their callers.
    let sessionsReply = try client.reply(to: third, timeout: .seconds(10))
    #expect(sessionsReply.id == third)
    #expect(sessionsReply.fields["sessions"]?.arrayValue != nil)
    let helloReply = try client.reply(to: second, timeout: .seconds(10))
    #expect(helloReply.fields["server"]?.stringValue == "transitiond")
    let routesReply = try client.reply(to: first, timeout: .seconds(10))
    #expect(routesReply.fields["routes"]?.objectValue != nil)
  }

  @Test("a refused request throws protocolError with the daemon's code")
  func protocolErrors() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    do {
      _ = try client.request(["op": "no-such-op"])
      Issue.record("expected a protocol error")
    } catch {
      #expect(error.code == .protocolError)
      #expect(error.daemonCode == "unknown_op")
    }
    do {
      _ = try client.control(session: "ghost", action: .pause)
      Issue.record("expected a protocol error")
    } catch {
      #expect(error.daemonCode == "unknown_session")
    }
    // A raw line that is not JSON gets an invalid_json reply; the connection stays usable.
    try client.sendLine("{not json")
    let reply = try client.nextReply(timeout: .seconds(10))
    #expect(reply.ok == false)
    #expect(reply.errorCode == "invalid_json")
    #expect(try client.hello().server == "transitiond")
  }

  @Test("frames of a virtual subscription arrive after its reply, then complete")
  func virtualFrames() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let scene = try TransitionctlScene(named: "zoom-present-dismiss")
    let started = try client.begin(context: scene.context, duration: 0.25)
    #expect(started.animator == "zoom-present")
    #expect(started.duration == 0.25)
    _ = try client.subscribe(session: started.session, fps: 20, clock: .virtual)
    let outcome = try client.framesUntilComplete(session: started.session)
    #expect(outcome.finished)
    #expect(outcome.frames.map(\.seq) == Array(0...5))
    for frame in outcome.frames {
      #expect(abs(frame.t - Double(frame.seq) / 20) < 1e-9)
      #expect(!frame.layers.isEmpty)
      // The raw line is kept byte for byte and decodes to the same frame.
      let decoded = try JSONSerialization.jsonObject(with: Data(frame.line.utf8)) as? [String: Any]
      #expect(decoded?["seq"] as? Int == frame.seq)
    }
  }

  @Test("events that arrive while a reply is awaited are queued in order")
  func eventsQueuedDuringRequests() throws {
    let daemon = try TransitionctlDaemon()
    defer { daemon.stop() }
    let client = try daemon.client()
    defer { client.close() }
    let scene = try TransitionctlScene(named: "default-slide-push")
    let started = try client.begin(context: scene.context, duration: 0.2)
    _ = try client.subscribe(session: started.session, fps: 50, clock: .virtual)
    // The frames stream while these requests wait for their replies.
    for _ in 0..<3 { _ = try client.hello() }
    let outcome = try client.framesUntilComplete(session: started.session)
    #expect(outcome.finished)
    #expect(outcome.frames.map(\.seq) == Array(0..<outcome.frames.count))
    #expect(outcome.frames.count == 11)
  }

  @Test("connecting to a missing socket throws connectFailed naming the path")
  func connectFailed() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let path = directory.file("absent.sock")
    do {
      _ = try DaemonClient(path: path)
      Issue.record("expected connectFailed")
    } catch {
      #expect(error.code == .connectFailed)
      #expect(error.path == path)
    }
  }

  @Test("the default socket path follows TRANSITIOND_SOCKET, then XDG_RUNTIME_DIR, then /tmp")
  func defaultSocketPath() {
    #expect(
      SocketPath.resolve(
        environment: [
          "TRANSITIOND_SOCKET": "/x/y.sock", "XDG_RUNTIME_DIR": "/run/user/5",
        ], uid: 1000)
        == "/x/y.sock")
    #expect(
      SocketPath.resolve(environment: ["XDG_RUNTIME_DIR": "/run/user/5"], uid: 1000)
        == "/run/user/5/transitiond/transitiond.sock")
    #expect(
      SocketPath.resolve(environment: ["TRANSITIOND_SOCKET": "", "XDG_RUNTIME_DIR": ""], uid: 1000)
        == "/tmp/transitiond-1000/transitiond.sock")
  }
}
