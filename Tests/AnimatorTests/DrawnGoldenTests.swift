import Foundation
import PluginCheck
import Testing
import TransitionJSON
import TransitionKit

/// The data animators of `config/animators` held to what the compiled plugins they replaced
/// drew (`Golden/drawn.json`): on every example scene and on layouts of other sizes and grids,
/// at progress samples and at the end of a cancel, each layer's drawn quad within 0.05 px, its
/// opacity within 0.001, the same layers drawn in the same paint order.
///
/// `TRANSITIOND_RECORD_GOLDEN=1 swift test --filter DrawnGoldenTests` rewrites the file from
/// the animators as they are: only after a change to what an animator draws that is meant.
@Suite struct DrawnGoldenTests {
  static let quadTolerance = 0.05
  static let alphaTolerance = 0.001
  static let samples: [Double] = [0, 0.05, 0.25, 0.5, 0.75, 0.95, 1]

  static var goldenPath: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Golden/drawn.json").path
  }

  /// Every case: an animator and a context.
  static func cases() throws -> [(name: String, animator: String, context: TransitionContext)] {
    var cases: [(String, String, TransitionContext)] = []
    let layouts = Layout.all + Layout.goldenExtras
    for layout in layouts {
      cases.append(("album-flip push \(layout)", "album-flip", Scenes.albumPush(layout)))
      cases.append(("album-flip pop \(layout)", "album-flip", Scenes.albumPop(layout)))
      for matched in [false, true] {
        let form = matched ? " matched" : ""
        cases.append(
          (
            "zoom-present present\(form) \(layout)", "zoom-present",
            Scenes.zoomPresent(layout, matched: matched)
          ))
        cases.append(
          (
            "zoom-present dismiss\(form) \(layout)", "zoom-present",
            Scenes.zoomDismiss(layout, matched: matched)
          ))
      }
      for operation in TransitionOperation.allCases {
        cases.append(
          (
            "default-slide \(operation.rawValue) \(layout)", "default-slide",
            Scenes.slide(operation, layout)
          ))
      }
    }
    // The example scenes of the animators the compiled plugins drew (a scene's file is named
    // after its animator); an animator written as data from the start has no such drawing.
    let recordedScenes = try CheckScene.examples(in: [Self.repository + "/config/scenes"])
      .filter { scene in Self.compiledAnimators.contains { scene.name.hasPrefix("\($0)-") } }
    for scene in recordedScenes {
      // A photo screen that names no roles has its cells inferred now
      // (`Screen.inferredCellIDs`), where the compiled album-flip dealt nothing.
      let namesRoles = [scene.context.from, scene.context.to].allSatisfy(\.namesRoles)
      for animator in Self.compiledAnimators
      where try DataAnimators.load(animator).operations.contains(scene.context.operation)
        && (animator != "album-flip" || namesRoles)
      {
        cases.append(("\(animator) on \(scene.name)", animator, scene.context))
      }
    }
    return cases
  }

  /// The animators that were compiled plugins before they were data.
  static let compiledAnimators = ["album-flip", "zoom-present", "default-slide"]

  static var repository: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../..").standardized.path
  }

  /// What a timeline draws at the samples and at the end of a cancel halfway: per frame, each
  /// layer in paint order as [id, opacity, x1, y1, … x4, y4] (hidden layers draw nothing, nor
  /// does a window others are clipped to that has nothing to paint itself).
  static func drawing(_ timeline: Timeline) throws -> JSONValue {
    let evaluator = TimelineEvaluator(timeline)
    var frames: [Frame] = samples.map { evaluator.frame(progress: $0) }
    frames.append(try cancelledFrame(timeline, after: 0.5).frame)
    return .array(
      frames.map { frame in
        .array(
          frame.layers.filter { layer in
            !layer.hidden && layer.alpha > 0
              && (Self.paints(layer) || !frame.layers.contains { $0.clipTo == layer.id })
          }.sorted { $0.z < $1.z }.map { layer in
            var row: [JSONValue] = [.string(layer.id), .number(rounded(layer.alpha, 10_000))]
            let f = layer.frame
            for corner in [
              Point(x: f.minX, y: f.minY), Point(x: f.maxX, y: f.minY),
              Point(x: f.maxX, y: f.maxY), Point(x: f.minX, y: f.maxY),
            ] {
              let drawn = layer.project(corner)
              row.append(.number(rounded(drawn.x, 100)))
              row.append(.number(rounded(drawn.y, 100)))
            }
            return .array(row)
          })
      })
  }

  /// Whether the layer has anything to paint: a background, content, a border or a shadow.
  static func paints(_ layer: LayerState) -> Bool {
    layer.background != nil || layer.content != nil || layer.border != .none
      || layer.shadow != .none
  }

  static func rounded(_ value: Double, _ scale: Double) -> Double {
    (value * scale).rounded() / scale
  }

  @Test func dataAnimatorsDrawWhatTheCompiledPluginsDrew() throws {
    let cases = try Self.cases()
    if ProcessInfo.processInfo.environment["TRANSITIOND_RECORD_GOLDEN"] == "1" {
      var recorded: [String: JSONValue] = [:]
      for (name, animator, context) in cases {
        recorded[name] = try Self.drawing(try DataAnimators.timeline(animator, context))
      }
      try Data(JSONValue.object(recorded).serialized.utf8).write(
        to: URL(fileURLWithPath: Self.goldenPath))
      return
    }
    let golden = try JSONValue(
      parsing: Array(try Data(contentsOf: URL(fileURLWithPath: Self.goldenPath))))
    let expected = try #require(golden.objectValue)
    #expect(expected.count == cases.count, "the golden file has \(expected.count) cases")
    for (name, animator, context) in cases {
      let want = try #require(expected[name]?.arrayValue, "no golden drawing for \(name)")
      let got = try #require(
        try Self.drawing(try DataAnimators.timeline(animator, context)).arrayValue)
      #expect(want.count == got.count, "\(name): frame count")
      for (index, (wantFrame, gotFrame)) in zip(want, got).enumerated() {
        let wantLayers = wantFrame.arrayValue ?? []
        let gotLayers = gotFrame.arrayValue ?? []
        let wantIDs = wantLayers.map { $0.arrayValue?.first?.stringValue ?? "" }
        let gotIDs = gotLayers.map { $0.arrayValue?.first?.stringValue ?? "" }
        guard wantIDs == gotIDs else {
          Issue.record("\(name), frame \(index): drawn layers \(gotIDs), expected \(wantIDs)")
          continue
        }
        for (wantLayer, gotLayer) in zip(wantLayers, gotLayers) {
          let a = (wantLayer.arrayValue ?? []).dropFirst().compactMap(\.numberValue)
          let b = (gotLayer.arrayValue ?? []).dropFirst().compactMap(\.numberValue)
          guard a.count == 9, b.count == 9 else {
            Issue.record("\(name), frame \(index): malformed row")
            continue
          }
          #expect(
            abs(a[0] - b[0]) <= Self.alphaTolerance, "\(name) frame \(index) \(wantIDs): opacity")
          for k in 1..<9 where abs(a[k] - b[k]) > Self.quadTolerance {
            Issue.record(
              "\(name), frame \(index), \(gotLayer): corner value \(k) is \(b[k]), expected \(a[k])"
            )
            break
          }
        }
      }
    }
  }
}

extension Layout {
  /// Layouts the example scenes and `Layout.all` do not show: one tiny portrait screen with a
  /// single column and a scrolled landscape one.
  static let goldenExtras: [Layout] = [
    Layout(
      container: Size(width: 200, height: 300), albumColumns: 1, coverAspect: 1.5, albumCount: 2,
      photoColumns: 1, photoCount: 3, selectedIndex: 0),
    Layout(
      container: Size(width: 844, height: 390), albumColumns: 5, coverAspect: 0.8, albumCount: 10,
      photoColumns: 7, photoCount: 35, scroll: 120, selectedIndex: 7),
  ]
}
