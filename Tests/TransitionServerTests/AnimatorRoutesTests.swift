import Testing
import TransitionKit

@testable import TransitionServer

/// The route table: lookup, switching one operation, and its `routes` JSON object.
@Suite struct AnimatorRoutesTests {
  @Test func looksUpAndSwitchesOneOperation() {
    var table = AnimatorRoutes(ServerConfig.defaultRoutes)
    #expect(table.animator(for: .push) == "album-flip")
    #expect(table.animator(for: .present) == "zoom-present")
    table.set(.push, to: "default-slide")
    #expect(table.animator(for: .push) == "default-slide")
    #expect(table.animator(for: .pop) == "album-flip")
    #expect(table.routes.count == 4)
  }

  @Test func missingOperationHasNoAnimator() {
    let table = AnimatorRoutes([.push: "a"])
    #expect(table.animator(for: .dismiss) == nil)
  }

  @Test func jsonMapsOperationNamesToAnimatorNames() {
    var table = AnimatorRoutes(ServerConfig.defaultRoutes)
    table.set(.dismiss, to: "crossfade")
    #expect(
      table.json
        == .object([
          "push": .string("album-flip"), "pop": .string("album-flip"),
          "present": .string("zoom-present"), "dismiss": .string("crossfade"),
        ]))
  }
}
