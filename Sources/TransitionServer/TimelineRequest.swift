import PluginValues
import TransitionJSON
import TransitionKit
import TransitionWire

/// One `begin`'s request for a timeline: asks the chosen animator and decodes its answer; when
/// the animator declines, fails, returns a malformed timeline, or its call faults (timeout,
/// crash, host down, quarantine), the fallback animator serves instead, as UIKit uses its
/// default transition when the delegate returns nil. A `begin` never fails because of a
/// plugin while the fallback can serve.
///
/// The fallback is the core's ``FallbackAnimator``, run in process: it serves even when the
/// plugin host is down. This is its one route: as the stand-in for an animator of its name
/// the source lacks (``AnimatorsWithFallback``) and for every fallback, it is handed the
/// context the daemon decoded, never its text.
struct TimelineRequest {
  /// A timeline ready to drive a session.
  struct Made {
    var timeline: Timeline
    /// The animator that made it (after any fallback).
    var animator: String
    /// Why the fallback served, or nil when the chosen animator did.
    var fallback: FallbackReason? = nil
  }

  /// Why the fallback served a `begin`: the reply's `fallbackReason` and `fallbackMessage`
  /// (docs/protocol.md).
  struct FallbackReason: Equatable {
    /// `declined`, `failed`, `malformed`, or a ``PluginCallFault`` raw value.
    var code: String
    /// What happened, naming the animator.
    var message: String
  }

  /// The source's animators and the fallback.
  let animators: AnimatorsWithFallback
  /// The context as the animator receives it, decoded
  /// (``BeginRequest/animatorContext(reduceMotion:)``).
  let context: TransitionContext
  /// The same context as text, for the source (``BeginRequest/contextJSON(reduceMotion:)``).
  let contextJSON: [UInt8]
  /// The longest timeline a session may play on its own (`limits.maxSessionSeconds`), or nil
  /// when the request sets the duration itself.
  let maximumSeconds: Double?
  let logger: Logger

  /// Asks `animator`; `completion` runs once with the timeline or the `animator_failed` error.
  func start(animator: String, completion: @escaping (Result<Made, WireError>) -> Void) {
    if animators.fallbackStandsIn(for: animator) {
      switch animators.fallback.makeTimeline(context: context) {
      case .timeline(let timeline): accept(timeline, of: animator, completion: completion)
      case .declined: declined(animator, completion: completion)
      case .failed(let message): failed(animator, message, completion: completion)
      }
      return
    }
    animators.source.makeTimeline(animator: animator, contextJSON: contextJSON) { result in
      switch result {
      case .timeline, .binaryTimeline:
        switch Self.decode(result) {
        case .success(let timeline):
          accept(timeline, of: animator, completion: completion)
        case .failure(let error):
          fallBack(
            FallbackReason(
              code: "malformed",
              message: "animator \(animator) returned a malformed timeline: \(error.message)"),
            completion: completion)
        }
      case .declined:
        declined(animator, completion: completion)
      case .failed(let message):
        failed(animator, message, completion: completion)
      case .faulted(let fault, let message):
        fallBack(
          FallbackReason(code: fault.rawValue, message: message),
          completion: completion)
      }
    }
  }

  /// `animator` made `timeline`: it drives the session unless it is overlong.
  private func accept(
    _ timeline: Timeline, of animator: String,
    completion: @escaping (Result<Made, WireError>) -> Void
  ) {
    if let overlong = overlong(timeline, animator: animator) {
      fallBack(FallbackReason(code: "overlong", message: overlong), completion: completion)
      return
    }
    completion(.success(Made(timeline: timeline, animator: animator, fallback: nil)))
  }

  private func declined(
    _ animator: String, completion: @escaping (Result<Made, WireError>) -> Void
  ) {
    fallBack(
      FallbackReason(code: "declined", message: "animator \(animator) declined the context"),
      completion: completion)
  }

  private func failed(
    _ animator: String, _ message: String,
    completion: @escaping (Result<Made, WireError>) -> Void
  ) {
    fallBack(
      FallbackReason(code: "failed", message: "animator \(animator) failed: \(message)"),
      completion: completion)
  }

  private func fallBack(
    _ reason: FallbackReason,
    completion: @escaping (Result<Made, WireError>) -> Void
  ) {
    let fallbackName = animators.fallback.info.name
    let level: LogLevel = reason.code == "declined" ? .debug : .warn
    logger.log(level, "\(reason.message); falling back to \(fallbackName)")
    switch animators.fallback.makeTimeline(context: context) {
    case .timeline(let timeline):
      if let overlong = overlong(timeline, animator: fallbackName) {
        let message =
          reason.code == "overlong" ? "\(reason.message), and \(overlong)" : overlong
        completion(.failure(WireError(.limitExceeded, message)))
        return
      }
      completion(.success(Made(timeline: timeline, animator: fallbackName, fallback: reason)))
    case .declined:
      completion(
        .failure(
          WireError(.animatorFailed, "\(reason.message), and \(fallbackName) declined too")))
    case .failed(let message):
      completion(
        .failure(
          WireError(.animatorFailed, "\(reason.message), and \(fallbackName) failed: \(message)"))
      )
    }
  }

  /// Why `timeline` is too long to play as it is, or nil.
  private func overlong(_ timeline: Timeline, animator: String) -> String? {
    guard let maximumSeconds, timeline.duration > maximumSeconds else { return nil }
    return "animator \(animator) made a timeline of \(timeline.duration) s, longer than the "
      + "limit of \(maximumSeconds) s (limits.maxSessionSeconds)"
  }

  /// The engine's timeline of an animator's bytes (validated by TransitionKit's codecs).
  private static func decode(_ result: PluginTimelineResult) -> Result<Timeline, EngineError> {
    do throws(EngineError) {
      guard let timeline = try result.decodedTimeline() else {
        return .failure(EngineError(.empty, "no timeline"))
      }
      return .success(timeline)
    } catch {
      return .failure(error)
    }
  }
}
