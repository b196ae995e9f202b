import DataAnimator
import PluginLoader
import PluginValues
import TransitionKit
import TransitionServer

/// `default-slide` compiled into the daemon: the animator that serves every `begin` whose
/// chosen animator could not, whatever happened to the plugin host (docs/plugins.md,
/// "Isolation"). It runs on the daemon's thread, from the same data file as the plugin host's
/// `default-slide` (`config/animators/default-slide.json`, embedded), and never declines.
public final class BuiltinFallback: FallbackAnimator {
  private let animator = BuiltinAnimators.defaultSlide

  public let info: RegisteredAnimator

  public init() {
    info = RegisteredAnimator(
      name: animator.name, operations: animator.operations,
      defaultDuration: animator.defaultDuration, pluginName: "built-in",
      pluginVersion: ServerCore.version, libraryPath: "")
  }

  public func makeTimeline(context: TransitionContext) -> AnimatorAnswer {
    animator.answer(for: context)
  }
}

@available(*, unavailable) extension BuiltinFallback: Sendable {}
