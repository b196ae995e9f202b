import TransitionPluginSDK

/// The plugin's entry symbol: the descriptor listing `album-flip`.
@_cdecl("transitiond_plugin_entry")
public func transitiondPluginEntry() -> UnsafeRawPointer? {
  PluginExport.descriptor(plugin: "AlbumFlip", version: "1.0.0", animators: [AlbumFlipAnimator()])
}
