import CTransitionPlugin
import Foundation
import PluginValues

/// Opening a plugin library and calling its entry symbol.
///
/// Libraries are opened with `RTLD_NOW | RTLD_LOCAL` (every symbol resolved up front, none
/// shared with other plugins) and never closed: unloading code that may have registered
/// runtime metadata (Swift) or handed out pointers is unsafe, so a library opened once stays
/// for the life of the process, even when it turns out not to be a plugin or is refused.
enum PluginLibrary {
  /// What opening a library found.
  enum Outcome {
    /// The entry symbol returned this descriptor (not yet checked).
    case descriptor(UnsafeRawPointer)
    /// The library has no entry symbol, or the entry returned NULL.
    case refused(PluginDiagnostic)
  }

  /// Opens the library at `realPath` and calls its entry symbol.
  static func open(realPath: String) -> Outcome {
    guard let handle = dlopen(realPath, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
      return .refused(
        PluginDiagnostic(
          .openFailed, .warning, path: realPath, "cannot load \(realPath): \(reason)"))
    }
    guard let symbol = dlsym(handle, TRANSITIOND_PLUGIN_ENTRY_SYMBOL) else {
      return .refused(
        PluginDiagnostic(
          .notAPlugin, .debug, path: realPath,
          "\(realPath) exports no \(TRANSITIOND_PLUGIN_ENTRY_SYMBOL): not a plugin, skipped"))
    }
    let entry = unsafeBitCast(symbol, to: transitiond_plugin_entry_fn.self)
    guard let descriptor = entry() else {
      return .refused(
        PluginDiagnostic(
          .invalidDescriptor, .error, path: realPath,
          "plugin \(realPath) returned no descriptor from \(TRANSITIOND_PLUGIN_ENTRY_SYMBOL); refused"
        ))
    }
    return .descriptor(UnsafeRawPointer(descriptor))
  }
}
