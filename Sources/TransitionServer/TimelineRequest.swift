import PluginHost
import TransitionKit
import TransitionWire

/// One `begin`'s request for a timeline: asks the chosen animator, falls back to
/// `default-slide` when it declines (as UIKit uses its default transition when the delegate
/// returns nil), and decodes what comes back.
///
/// The answer arrives through the ``AnimatorSource``'s completion, so it may come later than
/// the call; a built-in fallback animator (issue 10) plugs in at ``fallBack(declinedBy:)``.
struct TimelineRequest {
  /// A timeline ready to drive a session.
  struct Made {
    var timeline: Timeline
    /// The animator that made it (after any fallback).
    var animator: String
    /// True when the chosen animator declined and the fallback served.
    var fallback: Bool
  }

  let source: AnimatorSource
  let contextJSON: [UInt8]
  let logger: Logger

  /// Asks `animator`; `completion` runs once with the timeline or the `animator_failed` error.
  func start(animator: String, completion: @escaping (Result<Made, WireError>) -> Void) {
    source.makeTimeline(animator: animator, contextJSON: contextJSON) { result in
      switch result {
      case .timeline(let bytes):
        completion(decode(bytes, animator: animator, fallback: false))
      case .failed(let message):
        completion(
          .failure(logged(WireError(.animatorFailed, "animator \(animator) failed: \(message)"))))
      case .declined:
        fallBack(declinedBy: animator, completion: completion)
      }
    }
  }

  private func fallBack(
    declinedBy name: String, completion: @escaping (Result<Made, WireError>) -> Void
  ) {
    let fallback = PluginRegistry.fallbackAnimatorName
    guard name != fallback, source.animator(named: fallback) != nil else {
      completion(.failure(WireError(.animatorFailed, "animator \(name) declined the context")))
      return
    }
    logger.debug("animator \(name) declined the context; falling back to \(fallback)")
    source.makeTimeline(animator: fallback, contextJSON: contextJSON) { result in
      switch result {
      case .timeline(let bytes):
        completion(decode(bytes, animator: fallback, fallback: true))
      case .failed(let message):
        completion(
          .failure(
            logged(
              WireError(
                .animatorFailed, "animator \(name) declined and \(fallback) failed: \(message)"))))
      case .declined:
        completion(
          .failure(
            WireError(.animatorFailed, "animator \(name) and the fallback \(fallback) declined")))
      }
    }
  }

  /// Logs an animator's failure (the client gets it too, in the reply) and returns it.
  private func logged(_ error: WireError) -> WireError {
    logger.warn(error.message)
    return error
  }

  private func decode(_ bytes: [UInt8], animator: String, fallback: Bool) -> Result<
    Made, WireError
  > {
    do {
      return .success(
        Made(timeline: try Timeline(jsonBytes: bytes), animator: animator, fallback: fallback))
    } catch {
      logger.warn("animator \(animator) returned a malformed timeline: \(error.message)")
      return .failure(
        WireError(
          .animatorFailed, "animator \(animator) returned a malformed timeline: \(error.message)"))
    }
  }
}
