import DefaultSlideAnimator
import TransitionPluginSDK

/// The plugin's entry symbol: the descriptor listing `default-slide`.
@_cdecl("transitiond_plugin_entry")
public func transitiondPluginEntry() -> UnsafeRawPointer? {
  PluginExport.descriptor(
    plugin: "DefaultSlide", version: "1.0.0", animators: [DefaultSlideAnimator()])
}
