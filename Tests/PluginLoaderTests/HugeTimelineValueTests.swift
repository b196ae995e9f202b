import Foundation
import PluginLoader
import PluginValues
import Testing
import TransitionKit

/// A plugin's finite but huge values (which overflowed to `null` in frames) are refused when
/// its timeline arrives, naming the value.
@Suite struct HugeTimelineValueTests {
  @Test(arguments: [
    (#"{"duration":1,"layers":[{"id":"a","frame":[1e300,0,10,10]}]}"#, "layers[0].frame"),
    (#"{"duration":1,"layers":[{"id":"a","frame":[0,0,10,10],"z":-1e20}]}"#, "layers[0].z"),
    (
      #"{"duration":1,"layers":[{"id":"a","frame":[0,0,10,10],"tracks":[{"property":"transform","keyframes":[{"value":[1e200,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}]}]}]}"#,
      "layers[0].tracks[0].keyframes[0].value"
    ),
    (
      #"{"duration":1,"layers":[{"id":"a","frame":[0,0,10,10],"tracks":[{"property":"anchor","keyframes":[{"value":[0.5,1e16]}]}]}]}"#,
      "layers[0].tracks[0].keyframes[0].value"
    ),
  ])
  func hugeValuesAreRefusedOnArrival(timeline: String, field: String) throws {
    let directory = try TestDirectory.make()
    _ = try CPluginFixture(
      animators: [.init(name: "huge", behaviour: .timeline(timeline))]
    ).build(in: directory)
    let registry = TestDirectory.registry([directory.path])
    _ = registry.rescan()
    let result = registry.makeTimeline(animator: "huge", contextJSON: Array("{}".utf8))
    let error = #expect(throws: EngineError.self) { try result.decodedTimeline() }
    #expect(error?.code == .outOfRange)
    #expect(error?.message.hasPrefix(field) == true, "\(error?.message ?? "")")
  }
}
