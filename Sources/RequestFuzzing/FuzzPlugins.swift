import PluginLoader

/// The animator plugins of the fuzzer's own build tree (`lib<Name>.so` in `directory`) and the
/// data animators of `animatorDirectories` (`<name>.json`, such as the repository's
/// `config/animators`), loaded in process as the checks call them; the ownership policy is the
/// daemon's business, not what is fuzzed here.
func loadFuzzPlugins(from directory: String, animatorDirectories: [String]) -> PluginRegistry {
  let registry = PluginRegistry(
    configuration: .init(
      searchPath: PluginSearchPath(configured: [directory], executableDirectory: nil),
      allowInsecurePlugins: true, animatorPaths: animatorDirectories))
  _ = registry.rescan()
  return registry
}
