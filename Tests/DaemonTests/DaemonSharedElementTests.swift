import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// Shared elements on a real daemon: layers paired by `shared` name, played by `morph`, and
/// the contexts whose names are refused.
@Suite(.serialized) struct DaemonSharedElementTests {
  /// A list row (avatar, title, picture) and the detail screen they fly into, with one unpaired
  /// layer on each screen.
  static func rowToDetail() -> [String: JSONValue] {
    [
      "operation": "push", "container": [390, 844],
      "from": [
        "background": "#ffffffff",
        "layers": [
          ["id": "row", "frame": [0, 100, 390, 80], "background": "#f0f0f0ff"],
          ["id": "row-avatar", "frame": [16, 112, 56, 56], "shared": "avatar"],
          ["id": "row-title", "frame": [84, 120, 200, 24], "shared": "title"],
          ["id": "row-picture", "frame": [300, 110, 74, 60], "shared": "picture"],
        ],
      ],
      "to": [
        "background": "#ffffffff",
        "layers": [
          ["id": "detail-picture", "frame": [0, 0, 390, 300], "shared": "picture"],
          ["id": "detail-avatar", "frame": [16, 320, 96, 96], "shared": "avatar"],
          ["id": "detail-title", "frame": [128, 340, 240, 40], "shared": "title"],
          ["id": "detail-body", "frame": [16, 440, 358, 300]],
        ],
      ],
    ]
  }

  static func numbers(_ value: JSONValue?) -> [Double] {
    (value?.arrayValue ?? []).compactMap { $0.numberValue }
  }

  static func layer(_ id: String, _ frame: FrameEvent) -> [String: JSONValue]? {
    frame.layers.first { $0["id"]?.stringValue == id }
  }

  @Test func morphFliesEachPairFromItsOldFrameToItsNew() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    let context = Self.rowToDetail()
    let started = try client.begin(context: context, animator: "morph")
    #expect(started.animator == "morph")
    #expect(!started.fallback)
    _ = try client.subscribe(session: started.session, fps: 30, clock: .virtual)
    let (frames, finished) = try client.framesUntilComplete(session: started.session)
    #expect(finished)
    let first = try #require(frames.first)
    let last = try #require(frames.last)
    let pairs = [
      ("row-avatar", "detail-avatar"), ("row-title", "detail-title"),
      ("row-picture", "detail-picture"),
    ]
    func frameOf(_ id: String, in screen: String) -> JSONValue? {
      context[screen]?["layers"]?.arrayValue?.first { $0["id"]?.stringValue == id }?["frame"]
    }
    for (old, new) in pairs {
      let oldFrame = try #require(frameOf(old, in: "from"))
      let newFrame = try #require(frameOf(new, in: "to"))
      // Both layers of the pair share one box: the old frame first, the new one last.
      for id in [old, new] {
        #expect(Self.layer(id, first)?["frame"] == oldFrame, "\(id): \(first.line)")
        #expect(Self.layer(id, last)?["frame"] == newFrame, "\(id): \(last.line)")
      }
      // The old content fades into the new.
      #expect(Self.layer(old, first)?["alpha"] == nil)
      #expect(Self.layer(old, last)?["alpha"] == 0)
      #expect(Self.layer(new, first)?["alpha"] == 0)
      #expect(Self.layer(new, last)?["alpha"] == nil)
      // Half way, the box is between the two.
      let middle = frames[frames.count / 2]
      let box = Self.numbers(Self.layer(new, middle)?["frame"])
      let from = Self.numbers(oldFrame)
      let to = Self.numbers(newFrame)
      try #require(box.count == 4 && from.count == 4 && to.count == 4)
      for index in 0..<4 where from[index] != to[index] {
        #expect(
          min(from[index], to[index]) < box[index] && box[index] < max(from[index], to[index]))
      }
    }
    // Unpaired layers cross-fade in place.
    #expect(Self.layer("row", last)?["alpha"] == 0)
    #expect(Self.layer("detail-body", first)?["alpha"] == 0)
    #expect(Self.layer("detail-body", last)?["frame"] == [16, 440, 358, 300])
  }

  @Test func badSharedNamesAreRefusedNamingTheLayer() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    func refusal(_ change: (inout [String: JSONValue]) -> Void) throws -> (String?, String?) {
      var context = Self.rowToDetail()
      change(&context)
      let reply = try client.rawReply([
        "op": "begin", "animator": "morph", "context": .object(context),
      ])
      return (reply.errorCode, reply.fields["error"]?["message"]?.stringValue)
    }
    func setShared(_ value: JSONValue, _ screen: String, _ index: Int)
      -> (inout [String: JSONValue]) -> Void
    {
      { context in
        guard case .object(var side)? = context[screen],
          case .array(var layers)? = side["layers"], case .object(var layer) = layers[index]
        else { return }
        layer["shared"] = value
        layers[index] = .object(layer)
        side["layers"] = .array(layers)
        context[screen] = .object(side)
      }
    }
    let twice = try refusal(setShared("avatar", "to", 2))
    #expect(twice.0 == "invalid_context")
    #expect(twice.1?.contains("context.to.layers[2].shared") == true, "\(twice)")
    let empty = try refusal(setShared("", "from", 1))
    #expect(empty.0 == "invalid_context")
    #expect(empty.1?.contains("context.from.layers[1].shared") == true, "\(empty)")
    let long = try refusal(setShared(.string(String(repeating: "n", count: 65)), "from", 1))
    #expect(long.0 == "invalid_context")
    #expect(long.1?.contains("context.from.layers[1].shared") == true, "\(long)")
    let number = try refusal(setShared(7, "from", 1))
    #expect(number.0 == "invalid_context")
    #expect(number.1?.contains("context.from.layers[1].shared") == true, "\(number)")
  }
}
