import DataAnimator

/// The data animators compiled into the daemon: `default-slide`, its fallback, from
/// `config/animators/default-slide.json` (embedded when the daemon is built), so that it needs
/// no file on disk and serves when the plugin host is down.
public enum BuiltinAnimators {
  /// `default-slide`, read from the embedded copy of its file.
  public static let defaultSlide: DataAnimator = {
    switch DataAnimator.read(
      PackageResources.default_slide_json, name: "default-slide", file: "default-slide.json")
    {
    case .success(let animator): return animator
    case .failure(let error):
      // The file is validated by the tests on every build; a build from a broken file stops
      // here, at start-up, naming the problem.
      fatalError("the built-in default-slide.json does not validate: \(error)")
    }
  }()
}
