extension RegisteredAnimator {
  /// The name of the animator that serves a `begin` whenever the chosen one cannot (it
  /// declined, failed or faulted), as UIKit uses its default transition when the delegate
  /// returns nil: `default-slide`, which the daemon links as its built-in fallback.
  public static let fallbackName = "default-slide"
}
