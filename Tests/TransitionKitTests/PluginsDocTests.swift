import Foundation
import Testing
import TransitionJSON
import TransitionKit

/// The JSON examples of docs/plugins.md decode with the engine's codec: every block tagged
/// `json timeline` is a valid timeline, every `json` block after "This is what `make_timeline`
/// receives" a context, and the worked examples show a value of every kind and what the text
/// says they do.
@Suite struct PluginsDocTests {
  static let documentPath: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("docs/plugins.md").path
  }()

  /// The fenced blocks of the document with their info string.
  static func blocks() throws -> [(info: String, text: String)] {
    let text = try String(contentsOfFile: documentPath, encoding: .utf8)
    var blocks: [(String, String)] = []
    var current: (info: String, lines: [String])?
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if let open = current {
        if trimmed == "```" {
          blocks.append((open.info, open.lines.joined(separator: "\n")))
          current = nil
        } else {
          current?.lines.append(String(line))
        }
      } else if trimmed.hasPrefix("```") {
        current = (String(trimmed.dropFirst(3)), [])
      }
    }
    return blocks
  }

  static func timelines() throws -> [Timeline] {
    var timelines: [Timeline] = []
    for block in try blocks() where block.info == "json timeline" {
      timelines.append(try Timeline(jsonBytes: Array(block.text.utf8)))
    }
    return timelines
  }

  @Test func everyTimelineExampleDecodesAndEvaluates() throws {
    let timelines = try Self.timelines()
    #expect(timelines.count >= 8)
    for timeline in timelines {
      let evaluator = TimelineEvaluator(timeline)
      for progress in [0, 0.25, 0.5, 0.75, 1.0] {
        let frame = evaluator.frame(progress: progress)
        #expect(frame.layers.allSatisfy { $0.transform.isFinite && $0.alpha.isFinite })
      }
    }
  }

  @Test func theWorkedExamplesAnimateEveryKindOfValue() throws {
    var kinds = Set<PropertyValue.Kind>()
    var modes = Set<CalculationMode>()
    for timeline in try Self.timelines() {
      for layer in timeline.layers {
        for track in layer.tracks {
          kinds.insert(track.property.kind)
          modes.insert(track.mode)
        }
      }
    }
    #expect(kinds == [.number, .point, .size, .rect, .color, .bool, .transform])
    #expect(modes == Set(CalculationMode.allCases))
  }

  @Test func theExamplesDoWhatTheTextSays() throws {
    let timelines = try Self.timelines()
    func example(_ id: String) throws -> Timeline {
      try #require(timelines.first { $0.layers.contains { $0.id == id } })
    }
    // Four steps from the middle: one jump done at 0.6.
    let badge = try example("badge")
    #expect(abs(TimelineEvaluator(badge).frame(progress: 0.6).layers[0].alpha - 0.75) < 1e-12)
    // The stand-in shows only between the two instants; the real cell is drawn at both ends.
    let swap = TimelineEvaluator(try example("zoom.cell-3"))
    for progress in [0.0, 1.0] {
      #expect(swap.frame(progress: progress).layer("cell-3")?.hidden == false)
      #expect(swap.frame(progress: progress).layer("zoom.cell-3")?.hidden == true)
    }
    #expect(swap.frame(progress: 0.5).layer("cell-3")?.hidden == true)
    // The size grows past its target and ends on it, around a fixed centre.
    let sized = try #require(
      timelines.first { $0.layers.first?.tracks.first?.property == .size })
    let sizes = stride(from: 0.0, through: 1, by: 0.05).map {
      TimelineEvaluator(sized).frame(progress: $0).layers[0].frame
    }
    #expect(sizes.contains { $0.width > 200 })
    #expect(sizes.last == Rect(x: 95, y: 362, width: 200, height: 120))
    #expect(sizes.allSatisfy { abs($0.midX - 195) < 1e-9 && abs($0.midY - 422) < 1e-9 })
    // The turning page rests at the identity despite its perspective, and its bar turns with it
    // about the same container point.
    let page = try example("page")
    let first = TimelineEvaluator(page).frame(progress: 0)
    #expect(first.layers.allSatisfy { $0.transform == .identity })
    let middle = TimelineEvaluator(page).frame(progress: 0.5)
    for state in middle.layers {
      let ax = state.frame.x + state.anchor.x * state.frame.width
      let ay = state.frame.y + state.anchor.y * state.frame.height
      #expect(abs(ax) < 1e-9 && abs(ay - 422) < 1e-9, "\(state.id)")
      #expect(state.transform.m34 != 0)
    }
    // The matrix example starts as scale(0.5) · translate(40, 80).
    let detail = try example("detail")
    #expect(
      detail.layers[0].initial.transform
        == Transform3D.scale(x: 0.5, y: 0.5).concatenating(.translation(x: 40, y: 80)))
  }

  @Test func theContextExampleDecodes() throws {
    let contexts = try Self.blocks().filter { $0.info == "json context" }
    #expect(!contexts.isEmpty)
    for block in contexts {
      _ = try TransitionContext(json: try JSONValue(parsing: Array(block.text.utf8)))
    }
  }
}
