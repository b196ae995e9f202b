import Foundation
import PluginCheck
import PluginLoader
import Testing
import TransitionKit

/// `transitiond check-plugin`'s checker: the shipped plugins and the built-in data animators pass
/// on the example scenes, and a C plugin that breaks one rule fails that rule, with its reason.
@Suite struct PluginCheckTests {
  /// A red screen `a` replaced by a blue screen `b` on a 100 × 100 container.
  static let scene = CheckScene(
    name: "red-to-blue",
    context: TransitionContext(
      operation: .present, container: Size(width: 100, height: 100),
      from: Screen(layers: [
        ContextLayer(
          id: "a", frame: Rect(x: 0, y: 0, width: 100, height: 100),
          background: Color(red: 1, green: 0, blue: 0))
      ]),
      to: Screen(layers: [
        ContextLayer(
          id: "b", frame: Rect(x: 0, y: 0, width: 100, height: 100),
          background: Color(red: 0, green: 0, blue: 1))
      ])))

  /// The layer `a` (red) or `b` (blue) with an alpha track; `extra` adds members.
  static func layer(_ id: String, alpha: Double, to target: Double, z: Int, _ extra: String = "")
    -> String
  {
    let color = id == "a" ? "#ff0000ff" : "#0000ffff"
    return
      #"{"id":"\#(id)","frame":[0,0,100,100],"background":"\#(color)","alpha":\#(alpha),"z":\#(z)\#(extra),"tracks":[{"property":"alpha","keyframes":[{"value":\#(target)}]}]}"#
  }

  /// A timeline of `layers` (JSON texts).
  static func timeline(_ layers: [String]) -> String {
    #"{"duration":0.3,"layers":[\#(layers.joined(separator: ","))]}"#
  }

  /// The crossfade that passes every rule.
  static let good = timeline([layer("a", alpha: 1, to: 0, z: 0), layer("b", alpha: 0, to: 1, z: 1)])

  /// Builds a one-animator fixture serving present and checks it on the scene.
  func check(
    _ behaviour: CPluginFixture.Behaviour, name: String = "fixture-fade",
    operations: String = "TRANSITIOND_OPERATION_PRESENT",
    configure: (inout CPluginFixture) -> Void = { _ in },
    mode: Int? = nil
  ) throws -> PluginCheckReport {
    let directory = try TestDirectory.make()
    var fixture = CPluginFixture(
      animators: [.init(name: name, operations: operations, behaviour: behaviour)])
    configure(&fixture)
    let path = try fixture.build(in: directory)
    if let mode { try TestDirectory.setMode(mode, path) }
    return PluginChecker.check(library: path, scenes: [Self.scene])
  }

  /// The one failed rule of `report` and its detail.
  func failures(_ report: PluginCheckReport) -> [(PluginCheckReport.Rule, String)] {
    report.failures.map { ($0.rule, $0.detail) }
  }

  @Test func aPluginThatKeepsEveryRulePasses() throws {
    let report = try check(.timeline(Self.good))
    #expect(report.passed, "\(report.text)")
    #expect(
      report.results.map(\.rule) == [
        .load, .timeline, .layerIDs, .firstFrame, .lastFrame, .noJump, .cancel,
      ])
    #expect(report.text.hasSuffix("passed: 7 checks\n"))
  }

  @Test func theShippedPluginsPassOnTheExampleScenes() throws {
    let sceneDirectory = TestDirectory.packageRoot.appendingPathComponent("config/scenes").path
    let scenes = try CheckScene.examples(in: [sceneDirectory])
    #expect(scenes.count >= 10)
    for library in ["CubeTurn", "Crossfade"] {
      let path = (TestDirectory.productsDirectory as NSString)
        .appendingPathComponent("lib\(library).so")
      let report = PluginChecker.check(library: path, scenes: scenes)
      #expect(report.passed, "\(report.text)")
      #expect(report.results.filter { $0.rule == .firstFrame && $0.status == .passed }.count >= 2)
    }
  }

  @Test func theBuiltInDataAnimatorsPassOnTheExampleScenes() throws {
    let root = TestDirectory.packageRoot
    let scenes = try CheckScene.examples(in: [root.appendingPathComponent("config/scenes").path])
    for name in ["album-flip", "zoom-present", "default-slide"] {
      let path = root.appendingPathComponent("config/animators/\(name).json").path
      let animator = try PluginRegistry.readDataAnimator(path: path).get()
      let report = PluginChecker.check(animator, path: path, scenes: scenes)
      #expect(report.passed, "\(report.text)")
      #expect(report.results.filter { $0.rule == .firstFrame && $0.status == .passed }.count >= 2)
    }
  }

  @Test func anABIMismatchFailsTheLoadCheck() throws {
    let report = try check(.timeline(Self.good)) { $0.abiVersion = "2" }
    let found = failures(report)
    #expect(found.count == 1 && found[0].0 == .load, "\(report.text)")
    #expect(found.first?.1.contains("has ABI version 2") == true)
  }

  @Test func aGroupWritableLibraryFailsTheLoadCheck() throws {
    let report = try check(.timeline(Self.good), mode: 0o775)
    #expect(failures(report).map(\.0) == [.load], "\(report.text)")
    #expect(failures(report).first?.1.contains("writable by group or others") == true)
  }

  @Test func aLibraryWithoutTheEntrySymbolFailsTheLoadCheck() throws {
    let report = try check(.timeline(Self.good)) { $0.exportsEntry = false }
    #expect(failures(report).map(\.0) == [.load], "\(report.text)")
    #expect(failures(report).first?.1.contains("exports no transitiond_plugin_entry") == true)
  }

  @Test func anInvalidAnimatorFailsTheLoadCheck() throws {
    let report = try check(.timeline(Self.good), name: "Bad Name")
    #expect(failures(report).first?.0 == .load, "\(report.text)")
    #expect(failures(report).first?.1.contains("has an invalid name") == true)
  }

  @Test func anErrorFailsTheTimelineCheck() throws {
    let report = try check(.error("no screen to fade"))
    #expect(failures(report).map(\.0) == [.timeline], "\(report.text)")
    #expect(failures(report).first?.1 == "failed: no screen to fade")
  }

  @Test func repeatedIDsFailTheTimelineCheck() throws {
    let twice = Self.timeline([
      Self.layer("a", alpha: 1, to: 0, z: 0), Self.layer("a", alpha: 0, to: 1, z: 1),
    ])
    let report = try check(.timeline(twice))
    #expect(failures(report).map(\.0) == [.timeline], "\(report.text)")
    #expect(
      failures(report).first?.1.contains(#"layers[1].id "a" is used by another layer"#) == true)
  }

  @Test func aMissingOrUnprefixedLayerFailsTheLayerIDCheck() throws {
    let renamed = Self.good.replacingOccurrences(of: #""id":"b""#, with: #""id":"dim""#)
    let report = try check(.timeline(renamed))
    let found = failures(report)
    #expect(found.first?.0 == .layerIDs, "\(report.text)")
    #expect(found.first?.1.contains("context layers missing from the timeline: b") == true)
    #expect(found.first?.1.contains("added layers not named fixture-fade.…: dim") == true)
  }

  @Test func aWrongFirstFrameFailsTheFirstFrameAndCancelChecks() throws {
    let early = Self.timeline([
      Self.layer("a", alpha: 1, to: 0, z: 0), Self.layer("b", alpha: 1, to: 1, z: 1),
    ])
    let report = try check(.timeline(early))
    #expect(failures(report).map(\.0) == [.firstFrame, .cancel], "\(report.text)")
    #expect(failures(report).first?.1.contains("does not look like the from screen") == true)
  }

  @Test func aWrongLastFrameFailsTheLastFrameCheck() throws {
    let halfway = Self.timeline([
      Self.layer("a", alpha: 1, to: 0, z: 0), Self.layer("b", alpha: 0, to: 0.5, z: 1),
    ])
    let report = try check(.timeline(halfway))
    #expect(failures(report).map(\.0) == [.lastFrame], "\(report.text)")
    #expect(failures(report).first?.1.contains("does not look like the to screen") == true)
  }

  /// A timeline whose `b` is clipped to a window at `window` (a frame's JSON text).
  static func clipped(to window: String) -> String {
    timeline([
      layer("a", alpha: 1, to: 0, z: 0),
      layer("b", alpha: 0, to: 1, z: 1, #","clipTo":"fixture-fade.window""#),
      #"{"id":"fixture-fade.window","frame":\#(window),"z":2}"#,
    ])
  }

  @Test func aClipThatNeverLetsALayerBeSeenIsAWarning() throws {
    let report = try check(.timeline(Self.clipped(to: "[200,200,10,10]")))
    #expect(report.passed, "\(report.text)")
    let warnings = report.results.filter { $0.status == .warning }
    #expect(warnings.map(\.rule) == [.clip], "\(report.text)")
    #expect(
      warnings.first?.detail
        == "b is clipped to fixture-fade.window, which never lets it be seen at a sampled instant")
    #expect(report.text.contains("  warning: clip: fixture-fade on red-to-blue (present): b is"))
    let hidden = try check(
      .timeline(
        Self.clipped(to: "[0,0,50,50]").replacingOccurrences(
          of: #""z":2}"#, with: #""z":2,"hidden":true}"#)))
    #expect(hidden.results.filter { $0.status == .warning }.map(\.rule) == [.clip])
    let seen = try check(.timeline(Self.clipped(to: "[0,0,50,50]")))
    #expect(seen.results.allSatisfy { $0.status != .warning }, "\(seen.text)")
  }

  @Test func anAnimatorNoSceneExercisesFailsCoverage() throws {
    let report = try check(.timeline(Self.good), operations: "TRANSITIOND_OPERATION_PUSH")
    #expect(failures(report).map(\.0) == [.coverage], "\(report.text)")
  }

  @Test func aDeclineIsReportedNotFailed() throws {
    let report = try check(.decline)
    #expect(report.passed)
    #expect(report.results.last?.status == .skipped)
    #expect(report.results.last?.detail == "declined the scene")
  }
}
