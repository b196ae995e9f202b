// The animator contract, as one file: what an animator is (``Animator``), what it answers
// (``AnimatorAnswer``, and ``AnimatorOutcome`` as bytes), and how every caller runs one: the
// plugin SDK's `make_timeline` and the plugin host on a context's text
// (``Animator/outcome(forContextJSON:encoding:)``), the daemon's in-process fallback on the
// context it decoded (``Animator/answer(for:)``). The C form of the same contract is
// transitiond_plugin.h.

import TransitionJSON

/// An animator: a named way of turning a transition context into a timeline. Animators
/// written in Swift (on the plugin SDK) and written as data (DataAnimator) both are one.
///
/// A plugin lists its animators in `PluginExport.descriptor(plugin:version:animators:)`; the
/// SDK turns each into a C `transitiond_animator` whose `make_timeline` decodes the context,
/// calls `timeline(for:duration:)` and encodes the result.
public protocol Animator: Sendable {
  /// The animator's name, unique across all loaded plugins: 1 to 64 characters from a-z, 0-9,
  /// `-`, `.`, `_` (for example `album-flip`). Also the prefix of the animator's own layer ids.
  var name: String { get }
  /// The operations the animator serves; never empty.
  var operations: Set<TransitionOperation> { get }
  /// The duration in seconds the daemon lists and uses when the client asks for none.
  var defaultDuration: Double { get }

  /// The duration in seconds of `operation` when the context carries none; by default
  /// `defaultDuration`.
  func defaultDuration(for operation: TransitionOperation) -> Double

  /// Makes the timeline of one transition.
  ///
  /// Called only for an operation in `operations`.
  /// - Parameters:
  ///   - context: the decoded, validated context.
  ///   - duration: the timeline's duration in seconds, finite and positive: the context's
  ///     `duration` member when it has one, otherwise `defaultDuration(for:)`.
  /// - Returns: the timeline, or nil to decline the context (the daemon then falls back to
  ///   `default-slide`).
  /// - Throws: any error, reported to the daemon with its description.
  func timeline(for context: TransitionContext, duration: Double) throws -> Timeline?
}

extension Animator {
  public func defaultDuration(for operation: TransitionOperation) -> Double {
    defaultDuration
  }
}

/// What an animator made of one context's JSON bytes: the three answers of `make_timeline`.
public enum AnimatorOutcome: Equatable, Sendable {
  /// The timeline in the encoding asked for (`TRANSITIOND_STATUS_OK`): compact UTF-8 JSON, or
  /// the binary form (`Timeline.binaryEncoded`) the SDK returns and the plugin host sends.
  case timeline([UInt8])
  /// The animator cannot serve the context (`TRANSITIOND_STATUS_DECLINE`).
  case declined
  /// The context or the animator failed; the message names the problem, not the animator
  /// (`TRANSITIOND_STATUS_ERROR`).
  case failed(String)
}

/// How ``AnimatorOutcome/timeline(_:)`` carries the timeline.
public enum TimelineEncoding: Sendable {
  /// `Timeline.jsonText`: the JSON of the ABI, as a C plugin returns it.
  case json
  /// `Timeline.binaryEncoded`: what the SDK's `make_timeline` returns and the plugin host
  /// sends for the animators it runs itself.
  case binary
}

/// What an animator made of one decoded context: the timeline itself, a decline, or a
/// failure. What ``Animator/answer(for:)`` gives a caller in the same process, which reads
/// no bytes.
public enum AnimatorAnswer {
  case timeline(Timeline)
  /// The animator cannot serve the context.
  case declined
  /// The context or the animator failed; the message names the problem, not the animator.
  case failed(String)
}

extension Animator {
  /// Runs the animator on a context given as JSON bytes, without trapping on any input.
  ///
  /// The context is decoded with `TransitionContext(jsonBytes:)`, then answered as
  /// ``answer(for:)`` does.
  /// - Parameters:
  ///   - contextJSON: the context as UTF-8 JSON.
  ///   - encoding: how the timeline is encoded; JSON unless said.
  /// - Returns: the encoded timeline, a decline, or a failure whose message names the problem
  ///   (not the animator: the daemon reports it as `animator <name> failed: <message>`).
  public func outcome(
    forContextJSON contextJSON: some Collection<UInt8>, encoding: TimelineEncoding = .json
  ) -> AnimatorOutcome {
    let context: TransitionContext
    do throws(EngineError) {
      context = try TransitionContext(jsonBytes: contextJSON)
    } catch {
      return .failed(error.message)
    }
    switch answer(for: context) {
    case .timeline(let timeline):
      switch encoding {
      case .json: return .timeline(timeline.jsonText)
      case .binary: return .timeline(timeline.binaryEncoded)
      }
    case .declined: return .declined
    case .failed(let message): return .failed(message)
    }
  }

  /// Runs the animator on a decoded context, without trapping on any input: the one route of
  /// every caller to ``timeline(for:duration:)``.
  ///
  /// The context's optional `duration` member (seconds, kept in `context.hints`) sets the
  /// timeline's duration; without it the animator's `defaultDuration(for:)` is used. An
  /// operation outside `operations` is declined, so that the daemon falls back to its default
  /// animator.
  public func answer(for context: TransitionContext) -> AnimatorAnswer {
    let duration: Double
    do throws(EngineError) {
      duration = try Self.requestedDuration(in: context) ?? defaultDuration(for: context.operation)
    } catch {
      return .failed(error.message)
    }
    guard operations.contains(context.operation) else { return .declined }
    do {
      guard let timeline = try timeline(for: context, duration: duration) else { return .declined }
      return .timeline(timeline)
    } catch let error as EngineError {
      return .failed(error.message)
    } catch {
      return .failed("\(error)")
    }
  }

  /// The context's `duration` member, if any.
  /// - Throws: `EngineError` unless it is a finite positive number.
  private static func requestedDuration(in context: TransitionContext) throws(EngineError)
    -> Double?
  {
    guard let member = context.hints["duration"] else { return nil }
    guard let seconds = member.numberValue, seconds.isFinite, seconds > 0 else {
      throw EngineError(
        .outOfRange,
        "context.duration must be a positive number of seconds, got \(member.serialized)")
    }
    return seconds
  }
}
