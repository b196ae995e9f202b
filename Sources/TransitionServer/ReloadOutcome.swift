import PluginValues

/// What a reload did, for the `reload` reply: how many animators are loaded afterwards, and
/// the plugin scan's warnings and errors (a refused plugin, a loaded library changed on disk).
public struct ReloadOutcome: Sendable {
  public var animators: Int
  public var diagnostics: [PluginDiagnostic]

  public init(animators: Int, diagnostics: [PluginDiagnostic] = []) {
    self.animators = animators
    self.diagnostics = diagnostics
  }
}
