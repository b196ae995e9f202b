import TransitionPluginSDK

/// The plugin's entry symbol: the descriptor listing `zoom-present`.
@_cdecl("transitiond_plugin_entry")
public func transitiondPluginEntry() -> UnsafeRawPointer? {
  PluginExport.descriptor(
    plugin: "ZoomPresent", version: "1.0.0", animators: [ZoomPresentAnimator()])
}
