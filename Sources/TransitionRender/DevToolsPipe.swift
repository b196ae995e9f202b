import Foundation
import Glibc
import TransitionJSON

/// A client of the Chrome DevTools protocol over `--remote-debugging-pipe`: commands go to the
/// browser's descriptor 3 and replies and events come from its descriptor 4, each message one
/// JSON object ended by a NUL byte (no websocket).
///
/// Calls are synchronous: ``call(_:_:session:)`` writes a command and waits for the reply with
/// its id; events read meanwhile are kept, in order, for ``waitForEvent(_:session:)``. Several
/// threads may call at once (one per tab, each with its own `session`): the calling thread
/// that finds nobody reading reads the pipe for all of them and files each reply under its id,
/// so the tabs' commands overlap in the browser.
public final class DevToolsPipe: @unchecked Sendable {
  /// What went wrong on the pipe or in the browser's reply.
  public struct Failure: Error, CustomStringConvertible, Sendable {
    public let description: String
  }

  private let commands: Int32
  private let replyPipe: Int32
  private let timeoutMilliseconds: Int32
  /// Guards everything below; its condition is broadcast whenever a message was filed.
  private let state = NSCondition()
  private var nextID = 1
  /// Whether a thread is reading the pipe (the others wait on `state`).
  private var reading = false
  /// Replies read for calls that have not collected them yet, by id.
  private var replies: [Int: JSONValue] = [:]
  /// Why the pipe broke, once it did: every waiting call fails with it.
  private var broken: Failure?
  /// Read by the reading thread only (outside the lock).
  private var buffer: [UInt8] = []
  private var events: [JSONValue] = []
  /// Events kept unclaimed at most; older ones are dropped.
  private static let eventLimit = 256

  /// Talks over `commands` (written) and `replies` (read), which the pipe owns and closes.
  ///
  /// - Parameter timeoutSeconds: how long one read may wait before the browser counts as hung
  ///   (generous: a 2-core machine running a test suite beside it can stall Chromium for a
  ///   minute).
  public init(commands: Int32, replies: Int32, timeoutSeconds: Double = 300) {
    self.commands = commands
    self.replyPipe = replies
    self.timeoutMilliseconds = Int32(timeoutSeconds * 1000)
  }

  deinit {
    close(commands)
    close(replyPipe)
  }

  /// Sends `method` with `params` (to the target attached as `session`, if given) and returns
  /// the reply's `result`.
  ///
  /// - Throws: ``Failure`` with the protocol's error message, or when the browser goes away or
  ///   does not answer within the timeout.
  @discardableResult
  public func call(
    _ method: String, _ params: [String: JSONValue] = [:], session: String? = nil
  ) throws(Failure) -> JSONValue {
    state.lock()
    defer { state.unlock() }
    let id = nextID
    nextID += 1
    var message: [String: JSONValue] = [
      "id": .number(Double(id)), "method": .string(method), "params": .object(params),
    ]
    if let session { message["sessionId"] = .string(session) }
    var bytes = Array(JSONValue.object(message).serialized.utf8)
    bytes.append(0)
    // One message at a time on the command pipe, whole.
    try write(bytes)
    let reply = try awaitReply(id)
    if let error = reply["error"] {
      let text = error["message"]?.stringValue ?? error.serialized
      throw Failure(description: "\(method): \(text)")
    }
    return reply["result"] ?? .object([:])
  }

  /// Waits (holding `state`, which it releases while waiting or reading) for the reply `id`,
  /// reading the pipe when no other thread does.
  private func awaitReply(_ id: Int) throws(Failure) -> JSONValue {
    while true {
      if let reply = replies.removeValue(forKey: id) { return reply }
      if let broken { throw broken }
      readOrWait()
    }
  }

  /// With `state` held: when no other thread reads the pipe, reads one message (releasing
  /// `state` meanwhile), files it (or the failure) and wakes the waiting threads; otherwise
  /// waits until the reading thread has filed one.
  private func readOrWait() {
    if reading {
      state.wait()
      return
    }
    reading = true
    state.unlock()
    let read: Result<JSONValue, Failure>
    do { read = .success(try readMessage()) } catch { read = .failure(error) }
    state.lock()
    reading = false
    switch read {
    case .success(let message): file(message)
    case .failure(let failure): broken = failure
    }
    state.broadcast()
  }

  /// Keeps a message read from the pipe: a reply under its id, an event in `events`.
  private func file(_ message: JSONValue) {
    if let replyID = message["id"]?.numberValue {
      replies[Int(replyID)] = message
    } else {
      events.append(message)
      if events.count > Self.eventLimit { events.removeFirst(events.count - Self.eventLimit) }
    }
  }

  /// Returns the first event `method` (of `session`, when given) not yet claimed, reading until
  /// it comes.
  ///
  /// - Throws: ``Failure`` when the browser goes away or stays silent past the timeout.
  @discardableResult
  public func waitForEvent(_ method: String, session: String? = nil) throws(Failure) -> JSONValue {
    func matches(_ event: JSONValue) -> Bool {
      event["method"]?.stringValue == method
        && (session == nil || event["sessionId"]?.stringValue == session)
    }
    state.lock()
    defer { state.unlock() }
    while true {
      if let index = events.firstIndex(where: matches) { return events.remove(at: index) }
      if let broken { throw broken }
      readOrWait()
    }
  }

  private func write(_ bytes: [UInt8]) throws(Failure) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { raw in
        Glibc.write(commands, raw.baseAddress! + offset, raw.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw Failure(
          description: "the browser's command pipe: \(String(cString: strerror(errno)))")
      }
      offset += written
    }
  }

  /// The next NUL-ended message, parsed.
  private func readMessage() throws(Failure) -> JSONValue {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let message = buffer[..<end]
        defer { buffer.removeSubrange(...end) }
        do {
          return try JSONValue(parsing: message)
        } catch {
          throw Failure(description: "the browser sent a message that is not JSON: \(error)")
        }
      }
      var poller = pollfd(fd: replyPipe, events: Int16(POLLIN), revents: 0)
      let ready = poll(&poller, 1, timeoutMilliseconds)
      if ready < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "poll: \(String(cString: strerror(errno)))")
      }
      if ready == 0 {
        throw Failure(
          description: "the browser did not answer within \(timeoutMilliseconds / 1000) s")
      }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let count = chunk.withUnsafeMutableBytes { Glibc.read(replyPipe, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw Failure(description: "the browser's reply pipe: \(String(cString: strerror(errno)))")
      }
      if count == 0 { throw Failure(description: "the browser closed its DevTools pipe") }
      buffer.append(contentsOf: chunk[..<count])
    }
  }
}
