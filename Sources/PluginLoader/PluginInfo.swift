/// A loaded plugin library and the animators it contributed.
public struct PluginInfo: Equatable, Hashable, Sendable {
  /// The plugin's name from its descriptor.
  public let name: String
  /// The plugin's version string from its descriptor.
  public let version: String
  /// The real (symlink-free) path of the shared library.
  public let libraryPath: String
  /// The names of the animators it contributed, in descriptor order; an animator refused (say,
  /// for a name already taken) is not listed.
  public let animatorNames: [String]

  public init(name: String, version: String, libraryPath: String, animatorNames: [String]) {
    self.name = name
    self.version = version
    self.libraryPath = libraryPath
    self.animatorNames = animatorNames
  }
}
