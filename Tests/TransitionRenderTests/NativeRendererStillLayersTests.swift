import Testing
import TransitionJSON

@testable import TransitionRender

/// The native renderer's still layers (td_gles_renderer_keep_still_layers): a clip drawn by one
/// renderer, which copies back the layers that did not change, has the pixels of each frame
/// drawn by a renderer of its own.
@Suite(.serialized) struct NativeRendererStillLayersTests {
  /// A layer of a frame event.
  static func layer(
    _ id: String, frame: [Double], background: String, alpha: Double = 1, z: Double,
    transform: [Double]? = nil
  ) -> JSONValue {
    var members: [String: JSONValue] = [
      "id": .string(id), "frame": .array(frame.map(JSONValue.number)),
      "background": .string(background), "alpha": .number(alpha), "z": .number(z),
    ]
    if let transform { members["transform"] = .array(transform.map(JSONValue.number)) }
    return .object(members)
  }

  /// Frame `step` of a clip: a still background and panel under a panel that fades in and
  /// slides; on frame 3 the lower panel changes too, so that fewer layers stay still.
  static func frame(_ step: Int) -> [String: JSONValue] {
    let moved = Double(step) * 7.25
    let translation: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, moved, moved / 2, 0, 1]
    return [
      "seq": .number(Double(step)),
      "layers": .array([
        layer("ground", frame: [0, 0, 120, 90], background: "#203040ff", z: 0),
        layer(
          "panel", frame: [10, 10, 60, 40], background: step >= 3 ? "#c08020ff" : "#80c020ff",
          z: 1),
        layer(
          "card", frame: [20, 30, 50, 30], background: "#f0f0f0c0",
          alpha: 0.2 + 0.15 * Double(step), z: 2, transform: translation),
      ]),
    ]
  }

  /// Frame `step` of a clip whose bottom layer never changes but is clipped (`clipTo`) to a
  /// rounded card above it that grows: the clipped layer's pixels change with its clip.
  static func clippedFrame(_ step: Int) -> [String: JSONValue] {
    let grown = 30 + Double(step) * 9
    var clipped = layer("picture", frame: [0, 0, 120, 90], background: "#3080e0ff", z: 0)
    clipped = .object((clipped.objectValue ?? [:]).merging(["clipTo": .string("card")]) { $1 })
    var card = layer(
      "card", frame: [60 - grown, 45 - grown / 2, 2 * grown, grown], background: "#ffffff20", z: 1)
    card = .object((card.objectValue ?? [:]).merging(["cornerRadius": .number(12)]) { $1 })
    return ["seq": .number(Double(step)), "layers": .array([clipped, card])]
  }

  static func renderer() throws -> NativeRenderer {
    try NativeRenderer(
      container: (120, 90), scale: 2, background: "#000000", images: nil, drawsContent: false)
  }

  @Test func aClipDrawnByOneRendererMatchesEachFrameDrawnAlone() throws {
    let steps = [0, 1, 2, 2, 3, 4, 5]
    // One renderer at a time: each ends the process's EGL display when it goes.
    let alone = try steps.map { try Self.renderer().render(Self.frame($0)) }
    let clip = try Self.renderer()
    var previous: [UInt8]?
    for (position, step) in steps.enumerated() {
      let kept = clip.render(Self.frame(step))
      let differing = zip(kept, alone[position]).filter { $0 != $1 }.count
      #expect(
        kept.count == alone[position].count && differing == 0,
        "frame \(step): \(differing) bytes")
      if let previous { #expect(kept != previous || position == 3, "frame \(step) moved") }
      previous = kept
    }
  }

  @Test func aLayerClippedToAMovingLayerIsDrawnAgain() throws {
    let steps = [0, 1, 2, 3]
    let alone = try steps.map { try Self.renderer().render(Self.clippedFrame($0)) }
    let clip = try Self.renderer()
    for (position, step) in steps.enumerated() {
      let kept = clip.render(Self.clippedFrame(step))
      let differing = zip(kept, alone[position]).filter { $0 != $1 }.count
      #expect(differing == 0, "frame \(step): \(differing) bytes")
      if position > 0 { #expect(alone[position] != alone[position - 1], "frame \(step) grew") }
    }
  }
}
