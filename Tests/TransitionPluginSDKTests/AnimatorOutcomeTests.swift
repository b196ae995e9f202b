import Testing
import TransitionPluginSDK

/// `Animator.outcome(forContextJSON:)`: the three answers, the duration rules, and failures
/// that name the animator.
@Suite struct AnimatorOutcomeTests {
  private let animator = TestAnimator()

  private func outcome(_ text: String) -> AnimatorOutcome {
    animator.outcome(forContextJSON: Array(text.utf8))
  }

  private func timeline(_ outcome: AnimatorOutcome) throws -> Timeline {
    guard case .timeline(let bytes) = outcome else {
      Issue.record("expected a timeline, got \(outcome)")
      throw TestAnimator.Refusal()
    }
    return try Timeline(jsonBytes: bytes)
  }

  @Test func timelineUsesTheOperationsDefaultDuration() throws {
    #expect(try timeline(outcome(contextJSON("push"))).duration == 0.4)
    #expect(try timeline(outcome(contextJSON("pop"))).duration == 0.3)
  }

  @Test func contextDurationOverridesTheDefault() throws {
    let made = try timeline(outcome(contextJSON("push", hints: #""duration": 1.25"#)))
    #expect(made.duration == 1.25)
    #expect(made.layers.map(\.id) == ["sdk-test.fill"])
    #expect(made.layers[0].initial.frame == Rect(x: 0, y: 0, width: 390, height: 844))
  }

  @Test(arguments: [#""duration": 0"#, #""duration": -1"#, #""duration": "long""#])
  func badDurationsFail(hint: String) {
    guard case .failed(let message) = outcome(contextJSON("push", hints: hint)) else {
      Issue.record("accepted \(hint)")
      return
    }
    #expect(message.hasPrefix("context.duration "), "\(message)")
  }

  @Test func unservedOperationsAndDeclinesAreDeclined() {
    #expect(outcome(contextJSON("present")) == .declined)
    #expect(outcome(contextJSON("push", hints: #""decline": true"#)) == .declined)
  }

  /// The daemon names the animator (`animator sdk-test failed: …`), so the message does not.
  @Test func failuresNameTheProblemNotTheAnimator() {
    #expect(outcome(contextJSON("push", hints: #""fail": true"#)) == .failed("asked to fail"))
    #expect(
      outcome(contextJSON("push", hints: #""crash": true"#)) == .failed("refused by the test"))
    guard case .failed(let message) = outcome("not json") else {
      Issue.record("bad JSON was accepted")
      return
    }
    #expect(!message.contains("sdk-test"), "\(message)")
    guard case .failed(let operation) = outcome(contextJSON("swipe")) else {
      Issue.record("an unknown operation was accepted")
      return
    }
    #expect(operation.hasPrefix("context.operation "), "\(operation)")
  }
}
