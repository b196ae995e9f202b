import PluginHost

/// The animator plugins of the fuzzer's own build tree (`lib<Name>.so` in `directory`), loaded
/// in process as the checks call them; the ownership policy is the daemon's business, not
/// what is fuzzed here.
func loadFuzzPlugins(from directory: String) -> PluginRegistry {
  let registry = PluginRegistry(
    configuration: .init(
      searchPath: PluginSearchPath(configured: [directory], executableDirectory: nil),
      allowInsecurePlugins: true))
  _ = registry.rescan()
  return registry
}
