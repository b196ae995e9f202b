import TransitionPluginSDK

/// An animator whose answer the context chooses: hint `decline` declines, `fail` throws an
/// engine error, `crash` throws another error; otherwise one layer fills the container for
/// the requested duration.
struct TestAnimator: Animator {
  /// An error that is not an `EngineError`.
  struct Refusal: Error, CustomStringConvertible {
    var description: String { "refused by the test" }
  }

  let name = "sdk-test"
  let operations: Set<TransitionOperation> = [.push, .pop]
  let defaultDuration = 0.4

  func defaultDuration(for operation: TransitionOperation) -> Double {
    operation == .pop ? 0.3 : defaultDuration
  }

  func timeline(for context: TransitionContext, duration: Double) throws -> Timeline? {
    if context.hints["decline"] != nil { return nil }
    if context.hints["fail"] != nil { throw EngineError(.invalidValue, "asked to fail") }
    if context.hints["crash"] != nil { throw Refusal() }
    return try Timeline(
      duration: duration,
      layers: [TimelineLayer(filling: context.container, id: "sdk-test.fill", color: .black, z: 0)]
    )
  }
}

/// A context for `operation` in a 390 × 844 container with extra `hints` members (JSON text
/// such as `"fail": true`).
func contextJSON(_ operation: String, hints: String = "") -> String {
  let extra = hints.isEmpty ? "" : ", " + hints
  return #"{"operation": "\#(operation)", "container": [390, 844], "from": {}, "to": {}\#(extra)}"#
}
