import Foundation
import Glibc
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// Timelines a hostile plugin returns, against the real daemon and its plugin host while
/// another client streams: the C fixture `Tests/Fixtures/plugins/clip_chain.c` returns a
/// 20,000-layer `clipTo` chain (a check that recursed per link overflowed the stack and took
/// the daemon down) and the same chain closed into a loop. The chain is taken, the loop falls
/// back to `default-slide` with a short message, and the stream never skips a frame.
@Suite struct DaemonHostileTimelineTests {
  /// The fixture's layer count (`CLIP_CHAIN_LAYERS`).
  static let chainLayers = 20_000

  /// Builds the fixture into `libClipChain.so` in a new directory (mode 0755, for a host
  /// running as `nobody`) and returns the directory.
  static func buildClipChainPlugin() throws -> String {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    chmod(directory, 0o755)
    let source = TransitionctlProducts.repository.appendingPathComponent(
      "Tests/Fixtures/plugins/clip_chain.c"
    ).path
    try DaemonHarness.compilePlugin(source: source, to: directory + "/libClipChain.so")
    return directory
  }

  @Test func aTwentyThousandLayerClipChainIsTakenAndItsLoopRefused() throws {
    let directory = try Self.buildClipChainPlugin()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let daemon = try DaemonProcess(arguments: ["--plugin-path", directory])
    let recorder = try FrameRecorder(daemon: daemon)
    recorder.start()
    #expect(recorder.waitForFrames(10))
    let client = try daemon.client()

    let chain = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.plainPush()), "animator": "clip-chain",
    ])
    #expect(chain.ok, "\(chain.line.prefix(300))")
    #expect(chain.fields["animator"]?.stringValue == "clip-chain", "\(chain.line.prefix(300))")
    #expect(chain.fields["fallback"]?.boolValue == false)
    #expect(chain.fields["layers"]?.numberValue == Double(Self.chainLayers))

    let loop = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.plainPush()), "animator": "clip-loop",
    ])
    #expect(loop.ok, "\(loop.line.prefix(300))")
    #expect(loop.fields["animator"]?.stringValue == "default-slide")
    #expect(loop.fields["fallbackReason"]?.stringValue == "malformed", "\(loop.line.prefix(300))")
    let message = loop.fields["fallbackMessage"]?.stringValue ?? ""
    #expect(
      message.hasPrefix(
        "animator clip-loop returned a malformed timeline: layers[1].clipTo forms a loop: "
          + "\"l0\" → \"l\(Self.chainLayers - 1)\""), "\(message.prefix(300))")
    #expect(message.utf8.count < 300, "\(message.prefix(300))")

    // The other client's stream went on, every frame, and the daemon serves new clients.
    #expect(recorder.waitForFrames(recorder.frames.count + 10))
    let frames = recorder.stop()
    #expect(FrameRecorder.continuity(of: frames).seqContinuous, "the stream skipped a seq")
    #expect(daemon.process.isRunning)
    #expect(try daemon.client().hello().server == "transitiond")
  }

  /// A client's 1,400-layer `clipTo` chain: read in linear time (a check that walked every
  /// chain from every layer froze the daemon for about 84 s) and refused by
  /// `limits.maxLayersPerContext`, while the other client's stream goes on.
  @Test func aLongContextClipChainIsRefusedByTheLayerLimitAtOnce() throws {
    let daemon = try DaemonProcess(config: #"{"limits": {"maxLineBytes": 1048576}}"#)
    let recorder = try FrameRecorder(daemon: daemon)
    recorder.start()
    #expect(recorder.waitForFrames(10))
    let layers: [JSONValue] = (0..<1_400).map { index in
      var layer: [String: JSONValue] = ["id": .string("l\(index)"), "frame": [0, 0, 10, 10]]
      if index > 0 { layer["clipTo"] = .string("l\(index - 1)") }
      return .object(layer)
    }
    let client = try daemon.client()
    let reply = try client.rawReply([
      "op": "begin", "animator": "default-slide",
      "context": [
        "operation": "push", "container": [390, 844], "from": ["layers": .array(layers)],
        "to": ["layers": []],
      ],
    ])
    #expect(reply.errorCode == "limit_exceeded", "\(reply.line.prefix(300))")
    #expect(reply.errorMessage?.contains("(limits.maxLayersPerContext)") == true)
    #expect(recorder.waitForFrames(recorder.frames.count + 10))
    let frames = recorder.stop()
    #expect(FrameRecorder.continuity(of: frames).seqContinuous, "the stream skipped a seq")
    #expect(try client.hello().server == "transitiond")
  }
}
