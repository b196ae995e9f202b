import TransitionJSON
import TransitionKit

/// An animator written as data: a validated `AnimatorDocument` that builds an ordinary timeline
/// for each context, so evaluation, streaming, interactive control and the exact cancel are
/// those of any other animator.
///
/// Building a timeline evaluates every expression once for the context (never per frame). What
/// fails only on a particular context (a division by zero, a value that is not finite, a
/// `params` value the file does not declare or outside its range) throws `EngineError`, which
/// the plugin host reports as the animator failing, exactly as a plugin's bad timeline.
public struct DataAnimator: Animator {
  let document: AnimatorDocument

  public var name: String { document.name }
  public var operations: Set<TransitionOperation> { Set(document.plans.keys) }
  /// The duration of the first operation served, in the protocol's order.
  public var defaultDuration: Double {
    TransitionOperation.allCases.lazy.compactMap { document.plans[$0]?.duration }.first ?? 1
  }
  /// The largest file `read` accepts, in bytes.
  public static let maximumFileBytes = AnimatorDocumentReader.maximumFileBytes

  /// The knobs a `begin` may set with `params`.
  public var parameters: [AnimatorParameter] { document.parameters }

  /// Reads a data animator file.
  /// - Parameters:
  ///   - bytes: the file's contents.
  ///   - name: the animator's name, the file's name without `.json`.
  ///   - file: how messages name the file (its path).
  /// - Returns: the animator, or every problem found in the file (at least one).
  public static func read(_ bytes: some Collection<UInt8>, name: String, file: String)
    -> Result<DataAnimator, AnimatorFileError>
  {
    AnimatorDocumentReader.read(bytes, name: name, file: file).map(DataAnimator.init)
  }

  init(document: AnimatorDocument) {
    self.document = document
  }

  public func defaultDuration(for operation: TransitionOperation) -> Double {
    document.plans[operation]?.duration ?? defaultDuration
  }

  /// Whether the file gives a reduced form (`reduced`), which every operation plays when the
  /// context asks for reduced motion.
  public var hasReducedForm: Bool { document.reduced != nil }

  /// The plan that plays for `context`: the reduced form when the context's `reduceMotion` is
  /// true and the file has one (for an operation the file serves), else the operation's.
  func plan(for context: TransitionContext) -> OperationPlan? {
    guard let plan = document.plans[context.operation] else { return nil }
    if case .bool(true)? = context.hints[TransitionContext.reduceMotionKey],
      let reduced = document.reduced
    {
      return reduced
    }
    return plan
  }

  public func timeline(for context: TransitionContext, duration: Double) throws -> Timeline? {
    guard let plan = plan(for: context) else { return nil }
    // The reduced form has its own duration, unless the context sets one.
    let isReduced =
      document.reduced != nil && context.hints[TransitionContext.reduceMotionKey] == .bool(true)
    let duration = isReduced && context.hints["duration"] == nil ? plan.duration : duration
    var builder = try TimelineBuilder(
      document: document, plan: plan, context: context, duration: duration)
    guard builder.accepts else { return nil }
    return try builder.build()
  }
}
