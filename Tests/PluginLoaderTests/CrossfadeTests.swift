import Foundation
import PluginLoader
import PluginValues
import Testing
import TransitionKit

/// The real Crossfade plugin, written in plain C, loaded from the build products directory.
@Suite struct CrossfadeTests {
  let registry: PluginRegistry
  let report: PluginLoadReport
  let libraryPath: String

  init() throws {
    let path = (TestDirectory.productsDirectory as NSString).appendingPathComponent(
      "libCrossfade.so")
    libraryPath = TestDirectory.realPath(path)
    registry = TestDirectory.registry([path])
    report = registry.rescan()
  }

  /// Parses JSON text or bytes into Foundation values for structural comparison.
  static func json(_ bytes: [UInt8]) throws -> NSObject {
    try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? NSObject)
  }

  static func json(_ text: String) throws -> NSObject {
    try json(Array(text.utf8))
  }

  func timeline(_ context: String) -> PluginTimelineResult {
    registry.makeTimeline(animator: "crossfade", contextJSON: Array(context.utf8))
  }

  @Test func loadsAndListsItsAnimator() throws {
    #expect(report.problems == [])
    #expect(report.loaded.map(\.name) == ["crossfade"])
    let animator = try #require(registry.animator(named: "crossfade"))
    #expect(
      animator
        == RegisteredAnimator(
          name: "crossfade", operations: [.present, .dismiss], defaultDuration: 0.3,
          pluginName: "crossfade", pluginVersion: "1.0.0", libraryPath: libraryPath))
    #expect(animator.orderedOperations == [.present, .dismiss])
    #expect(registry.animators == [animator])
  }

  @Test func fadesFromLayersOutAndToLayersIn() throws {
    let context = """
      {"operation":"present","container":[390,844],
       "from":{"layers":[{"id":"list","frame":[0,0,390,844],"background":"#ffffffff"}]},
       "to":{"layers":[{"id":"detail","frame":[0,0,390,844],"content":{"image":"cat.png"}},
                       {"id":"title","frame":[16,60.5,358,40]}]},
       "selected":"list"}
      """
    let expected = """
      {"duration":0.3,"curve":"easeInEaseOut","layers":[
        {"id":"list","frame":[0,0,390,844],"alpha":1,"z":0,"background":"#ffffffff",
         "tracks":[{"property":"alpha","keyframes":[{"start":0,"duration":1,"value":0,"curve":"linear"}]}]},
        {"id":"detail","frame":[0,0,390,844],"alpha":0,"z":1,"content":{"image":"cat.png"},
         "tracks":[{"property":"alpha","keyframes":[{"start":0,"duration":1,"value":1,"curve":"linear"}]}]},
        {"id":"title","frame":[16,60.5,358,40],"alpha":0,"z":2,
         "tracks":[{"property":"alpha","keyframes":[{"start":0,"duration":1,"value":1,"curve":"linear"}]}]}
      ]}
      """
    guard case .timeline(let bytes) = timeline(context) else {
      Issue.record("expected a timeline, got \(timeline(context))")
      return
    }
    #expect(try Self.json(bytes) == Self.json(expected))
  }

  @Test func screenBackgroundsBecomeContainerLayersNamedAfterTheAnimator() throws {
    let context = """
      {"operation":"dismiss","container":[320,480],
       "from":{"background":"#000000ff","layers":[{"id":"card","frame":[10,10,100,100]}]},
       "to":{"background":"#ffffffff","layers":[{"id":"list","frame":[0,0,320,480]}]}}
      """
    let fadeOut =
      #"[{"property":"alpha","keyframes":[{"start":0,"duration":1,"value":0,"curve":"linear"}]}]"#
    let fadeIn =
      #"[{"property":"alpha","keyframes":[{"start":0,"duration":1,"value":1,"curve":"linear"}]}]"#
    let expected = """
      {"duration":0.3,"curve":"easeInEaseOut","layers":[
        {"id":"crossfade.from-background","frame":[0,0,320,480],"alpha":1,"z":0,
         "background":"#000000ff","tracks":\(fadeOut)},
        {"id":"card","frame":[10,10,100,100],"alpha":1,"z":1,"tracks":\(fadeOut)},
        {"id":"crossfade.to-background","frame":[0,0,320,480],"alpha":0,"z":2,
         "background":"#ffffffff","tracks":\(fadeIn)},
        {"id":"list","frame":[0,0,320,480],"alpha":0,"z":3,"tracks":\(fadeIn)}
      ]}
      """
    guard case .timeline(let bytes) = timeline(context) else {
      Issue.record("expected a timeline, got \(timeline(context))")
      return
    }
    #expect(try Self.json(bytes) == Self.json(expected))
  }

  @Test func readsContextWithoutTerminatorAndWithEscapes() throws {
    // The host passes exactly the context's bytes; the plugin must not look past them.
    let context =
      #"{"operation":"present","container":[1,1],"from":{"layers":[]},"#
      + #""to":{"layers":[{"id":"a\"b","frame":[1e1,-2.5,3,4]}]}}"#
    guard case .timeline(let bytes) = timeline(context) else {
      Issue.record("expected a timeline, got \(timeline(context))")
      return
    }
    let root = try #require(try Self.json(bytes) as? [String: Any])
    let layers = try #require(root["layers"] as? [[String: Any]])
    #expect(layers.count == 1)
    #expect(layers.first?["id"] as? String == "a\"b")
    #expect(layers.first?["frame"] as? [Double] == [10, -2.5, 3, 4])
  }

  @Test(
    "declines contexts it cannot read or serve",
    arguments: [
      #"{"operation":"push","container":[1,1],"from":{"layers":[]},"to":{"layers":[]}}"#,
      #"{"operation":"present","container":[1,1],"from":{"layers":[]}}"#,
      #"{"operation":"present","from":{"layers":[{"id":"a","frame":[0,0,1]}]},"to":{"layers":[]}}"#,
      #"{"operation":"present","from":{"layers":[{"frame":[0,0,1,1]}]},"to":{"layers":[]}}"#,
      #"{"operation":"present","from":{"layers":[]},"to":{"layers":[]},}"#,
      ##"{"operation":"present","from":{"background":"#fff","layers":[]},"to":{"layers":[]}}"##,
      #"{"operation":"present","from":{"layers":[]},"to":{"layers":[]}} trailing"#,
      #"{"operation":"present","from":{"layers":[]},"to":{"layers":["#,
      "[]",
      "",
    ])
  func declines(context: String) {
    #expect(timeline(context) == .declined)
  }

  @Test func acceptsAMinimalContext() {
    let context =
      #" {"operation":"dismiss","from":{"layers":[]},"to":{"layers":[{"id":"x","frame":[0,0,1,1]}]}} "#
    let expected =
      #"{"duration":0.3,"curve":"easeInEaseOut","layers":[{"id":"x","frame":[0,0,1,1],"alpha":0,"z":0,"#
      + #""tracks":[{"property":"alpha","keyframes":[{"start":0,"duration":1,"value":1,"curve":"linear"}]}]}]}"#
    #expect(timeline(context) == .timeline(Array(expected.utf8)))
  }

  @Test func declinesAContextWithNothingToFade() {
    let context = #"{"operation":"present","from":{"layers":[]},"to":{"layers":[]}}"#
    #expect(timeline(context) == .declined)
  }

  @Test func declinesEveryTruncationOfAValidContext() {
    let text =
      ##"{"operation":"present","container":[2,3],"from":{"background":"#010203ff","##
      + #""layers":[{"id":"a\u0041","frame":[-1.5e-3,0,1,2],"content":{"k":[true,null,"v"]}}]},"#
      + #""to":{"layers":[{"id":"b","frame":[0,0,2,3],"background":null}]}}"#
    let context = Array(text.utf8)
    guard case .timeline = registry.makeTimeline(animator: "crossfade", contextJSON: context) else {
      Issue.record("the full context should make a timeline")
      return
    }
    let accepted = (0..<context.count).filter { length in
      registry.makeTimeline(animator: "crossfade", contextJSON: Array(context[..<length]))
        != .declined
    }
    #expect(accepted == [])
  }

  @Test func declinesContentNestedTooDeeply() {
    let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    let context =
      #"{"operation":"present","from":{"layers":[{"id":"a","frame":[0,0,1,1],"content":"#
      + deep + #"}]},"to":{"layers":[]}}"#
    #expect(timeline(context) == .declined)
  }

  @Test func itsTimelineDecodesWithTheEngineCodec() throws {
    let context = """
      {"operation":"present","container":[390,844],
       "from":{"background":"#ffffffff","layers":[{"id":"a","frame":[0,0,390,844]}]},
       "to":{"layers":[{"id":"b","frame":[0,0,390,844],"background":"#ff0000ff"}]}}
      """
    let decoded = try #require(try timeline(context).decodedTimeline())
    #expect(decoded.duration == 0.3)
    #expect(decoded.curve == .easeInEaseOut)
    #expect(decoded.layers.map(\.id) == ["crossfade.from-background", "a", "b"])
    #expect(decoded.layers.map { $0.tracks.count } == [1, 1, 1])
  }
}
