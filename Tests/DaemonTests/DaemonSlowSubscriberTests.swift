import Foundation
import Testing
import TransitionClient
import TransitionJSON
import UnixIO

@testable import IntegrationSupport

/// A subscriber that does not read: its frames are coalesced past the soft limit, and it is
/// disconnected when it stays over the soft limit too long; other clients never stall.
@Suite struct DaemonSlowSubscriberTests {
  private func stats(_ client: DaemonClient) throws -> JSONObject {
    try client.request(["op": "stats"]).object.object("stats")
  }

  @Test func framesAreCoalescedForASlowReader() throws {
    let daemon = try DaemonProcess(
      config: """
        {"limits": {"subscriberSoftLimitBytes": 4096, "subscriberHardLimitBytes": 1048576,
                    "subscriberSoftLimitSeconds": 60}}
        """)
    let observer = try daemon.client()
    let slow = try daemon.client()
    let session = try slow.begin(context: DaemonScenes.albumPush(), duration: 4).session
    _ = try slow.subscribe(session: session, fps: 240)
    // The slow client reads nothing until frames have been coalesced for it.
    let coalesced = try DaemonHarness.waitUntil {
      try stats(observer).object("frames").int("coalesced") > 0
    }
    #expect(coalesced)
    let (frames, finished) = try slow.framesUntilComplete(session: session)
    #expect(finished)
    #expect(frames.last?.progress == 1)
    // A gap in seq shows the frames it missed.
    let seqs = frames.map(\.seq)
    #expect(seqs == seqs.sorted())
    #expect(seqs.last.map { $0 + 1 } ?? 0 > seqs.count)
    #expect(try stats(observer).int("slowDisconnects") == 0)
  }

  @Test func aReaderOverTheSoftLimitTooLongIsDisconnected() throws {
    let daemon = try DaemonProcess(
      config: """
        {"limits": {"subscriberSoftLimitBytes": 4096, "subscriberHardLimitBytes": 1048576,
                    "subscriberSoftLimitSeconds": 0.2}}
        """)
    let observer = try daemon.client()
    let slow = try daemon.client()
    let session = try slow.begin(context: DaemonScenes.albumPush(), duration: 60).session
    _ = try slow.subscribe(session: session, fps: 240)
    let dropped = try DaemonHarness.waitUntil {
      try stats(observer).int("slowDisconnects") == 1
    }
    #expect(dropped)
    // The log line: ServerCoreLogTests.aSlowSubscriberIsLoggedWithTheLimitItPassed.
    // The slow client finds its stream cut off after what was already buffered.
    var closed = false
    while !closed {
      do {
        _ = try slow.nextEvent(timeout: .seconds(20))
      } catch {
        closed = error.code == .closed
        if !closed { throw error }
      }
    }
    #expect(closed)
    // The session runs on, and other clients are served.
    #expect(try observer.sessions().map(\.session) == [session])
  }

  @Test func aClientThatNeverReadsItsRepliesIsDisconnectedAtTheHardLimit() throws {
    let daemon = try DaemonProcess(
      config: """
        {"limits": {"subscriberSoftLimitBytes": 4096, "subscriberHardLimitBytes": 16384}}
        """)
    let observer = try daemon.client()
    let flooder = try BlockingLineSocket(path: daemon.socketPath)
    // About 2.5 MB of replies, far more than the socket buffers hold; nothing is read.
    let request = #"{"op":"animators"}"#
    for _ in 0..<3000 {
      guard (try? flooder.send(request)) != nil else { break }
    }
    let dropped = try DaemonHarness.waitUntil {
      try stats(observer).int("slowDisconnects") == 1
    }
    #expect(dropped)
    // The log line: ServerCoreLogTests.aSlowSubscriberIsLoggedWithTheLimitItPassed.
    #expect(try observer.hello().server == "transitiond")
  }
}
