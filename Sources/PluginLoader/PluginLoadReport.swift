import PluginValues

/// What one scan of the search path did: the plugins it loaded and everything it noticed.
public struct PluginLoadReport: Equatable, Sendable {
  /// The plugins this scan loaded, in load order (libraries loaded by earlier scans are not
  /// repeated).
  public var loaded: [PluginInfo]
  /// Everything noticed, in scan order, including one `.loaded` diagnostic per loaded plugin.
  public var diagnostics: [PluginDiagnostic]

  public init(loaded: [PluginInfo] = [], diagnostics: [PluginDiagnostic] = []) {
    self.loaded = loaded
    self.diagnostics = diagnostics
  }

  /// The refusals and failures (severity warning or error).
  public var problems: [PluginDiagnostic] { diagnostics.filter(\.isProblem) }
}
