import Foundation
import PluginLoader
import PluginValues
import Testing

/// Calling animators: every outcome a plugin can produce becomes a `PluginTimelineResult`.
@Suite struct TimelineCallTests {
  let registry: PluginRegistry

  init() throws {
    let directory = try TestDirectory.make()
    try CPluginFixture(animators: [
      .init(name: "echo", behaviour: .echo),
      .init(name: "report", behaviour: .report),
      .init(name: "decline", behaviour: .decline),
      .init(name: "error", behaviour: .error("cannot flip: no album layer")),
      .init(name: "silent-error", behaviour: .errorWithoutMessage),
      .init(name: "empty-ok", behaviour: .okWithoutBytes),
      .init(name: "odd-status", behaviour: .status(7)),
    ]).build(in: directory)
    registry = TestDirectory.registry([directory.path])
    registry.rescan()
  }

  @Test func contextBytesCrossUnchangedAndTimelineBytesComeBack() {
    let context = Array(#"{"operation":"push","selected":"ünïcode"}"#.utf8)
    #expect(registry.makeTimeline(animator: "echo", contextJSON: context) == .timeline(context))
  }

  @Test func pluginErrorBecomesFailedWithThePluginsMessage() {
    #expect(
      registry.makeTimeline(animator: "error", contextJSON: Array("{}".utf8))
        == .failed("cannot flip: no album layer"))
  }

  @Test func declineIsReportedAsDeclined() {
    #expect(registry.makeTimeline(animator: "decline", contextJSON: Array("{}".utf8)) == .declined)
  }

  @Test func malformedResultsBecomeFailures() {
    let context = Array("{}".utf8)
    #expect(
      registry.makeTimeline(animator: "silent-error", contextJSON: context)
        == .failed("reported an error without a message"))
    #expect(
      registry.makeTimeline(animator: "empty-ok", contextJSON: context)
        == .failed("reported success but returned no timeline"))
    #expect(
      registry.makeTimeline(animator: "odd-status", contextJSON: context)
        == .failed("returned unknown status 7"))
    #expect(
      registry.makeTimeline(animator: "missing", contextJSON: context)
        == .failed("no animator of that name is loaded"))
  }

  @Test func hostFreesEveryReturnedBufferExactlyOnce() throws {
    // Each call's result is freed before the call returns, so the count a call reports is
    // the number of results (timelines and messages) returned before it.
    func frees() throws -> Int {
      guard case .timeline(let bytes) = registry.makeTimeline(animator: "report", contextJSON: [])
      else {
        Issue.record("report animator returned no timeline")
        return -1
      }
      let object = try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Int]
      return try #require(object?["frees"])
    }
    let before = try frees()
    _ = registry.makeTimeline(animator: "error", contextJSON: [])
    _ = registry.makeTimeline(animator: "decline", contextJSON: [])
    #expect(try frees() == before + 2)  // the first report's timeline and the error message
  }

  @Test func declinedTimelineHasNothingToDecode() throws {
    #expect(try PluginTimelineResult.declined.decodedTimeline() == nil)
    #expect(try PluginTimelineResult.failed("x").decodedTimeline() == nil)
  }
}
