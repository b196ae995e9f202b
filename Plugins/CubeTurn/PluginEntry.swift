import TransitionPluginSDK

/// The plugin's entry symbol: the descriptor listing `cube-turn`.
@_cdecl("transitiond_plugin_entry")
public func transitiondPluginEntry() -> UnsafeRawPointer? {
  PluginExport.descriptor(plugin: "CubeTurn", version: "1.0.0", animators: [CubeTurnAnimator()])
}
