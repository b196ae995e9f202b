import DataAnimator
import Foundation
import Testing
import TransitionKit

@Suite struct DataParityScratchTests {
  func data(_ name: String) throws -> DataAnimator {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../config/animators/\(name).json").standardized.path
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    switch DataAnimator.read(Array(bytes), name: name, file: path) {
    case .success(let animator): return animator
    case .failure(let error): throw PluginTestError(description: error.description)
    }
  }

  @Test func parity() throws {
    let cases: [(String, String, String, (Layout) -> TransitionContext)] = [
      ("AlbumFlip", "album-flip", "push", Scenes.albumPush),
      ("AlbumFlip", "album-flip", "pop", Scenes.albumPop),
      ("ZoomPresent", "zoom-present", "present", { Scenes.zoomPresent($0) }),
      ("ZoomPresent", "zoom-present", "dismiss", { Scenes.zoomDismiss($0) }),
      ("ZoomPresent", "zoom-present", "mpresent", { Scenes.zoomPresent($0, matched: true) }),
      ("ZoomPresent", "zoom-present", "mdismiss", { Scenes.zoomDismiss($0, matched: true) }),
      ("DefaultSlide", "default-slide", "push", { Scenes.slide(.push, $0) }),
      ("DefaultSlide", "default-slide", "pop", { Scenes.slide(.pop, $0) }),
      ("DefaultSlide", "default-slide", "present", { Scenes.slide(.present, $0) }),
      ("DefaultSlide", "default-slide", "dismiss", { Scenes.slide(.dismiss, $0) }),
    ]
    for (library, name, label, make) in cases {
      let compiled = try AnimatorUnderTest(library: library, animator: name)
      let animator = try data(name)
      for layout in Layout.all {
        let context = make(layout)
        let expected = try compiled.run(context).timeline()
        let duration = animator.defaultDuration(for: context.operation)
        let actual = try #require(try animator.timeline(for: context, duration: duration))
        #expect(expected.duration == actual.duration, "\(name) \(label) \(layout)")
        #expect(expected.curve == actual.curve, "\(name) \(label) \(layout)")
        #expect(expected.layers.map(\.id) == actual.layers.map(\.id), "\(name) \(label) \(layout)")
        for (a, b) in zip(expected.layers, actual.layers) {
          var a = a
          var b = b
          a.tracks.sort { $0.property.rawValue < $1.property.rawValue }
          b.tracks.sort { $0.property.rawValue < $1.property.rawValue }
          if a != b { Issue.record("\(name) \(label) \(layout) \(a.id):\n\(a)\n\(b)") }
        }
      }
    }
  }
}
