import CProcessControl
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

  /// Opens the library open as `descriptor`, whose real path is `realPath`, and calls its
  /// entry symbol. It is loaded as `/proc/self/fd/N` (``DescriptorPath``); diagnostics name
  /// `realPath` only. A library loaded that way finds nothing beside itself through `$ORIGIN`
  /// (its origin is `/proc/self/fd`), and `dladdr` in it names `/proc/self/fd/N`.
  ///
  /// `dlopen` opens `/proc/self/fd/N` again with this process's credentials; a file this
  /// process may not read (a library of mode `0600` owned by the daemon's user, opened by the
  /// daemon and handed to the host, which runs as `pluginUser`) is then loaded from a sealed
  /// copy in memory made through the descriptor (``loadCopy(of:realPath:)``).
  static func open(realPath: String, descriptor: Int32) -> Outcome {
    var opened = load(descriptor: descriptor, realPath: realPath)
    if opened.0 == nil, opened.1.hasSuffix("Permission denied") {
      opened = loadCopy(of: descriptor, realPath: realPath) ?? opened
    }
    return call(opened, realPath: realPath)
  }

  /// The most bytes of a library loaded from a copy in memory.
  static let maximumCopyBytes = 1 << 28

  /// `load` of a sealed copy in memory of the file open as `descriptor`; nil when no copy
  /// could be made. The copy's descriptor is closed once loaded: the mapping keeps it.
  private static func loadCopy(of descriptor: Int32, realPath: String) -> (
    UnsafeMutableRawPointer?, String
  )? {
    let copy = process_control_copy_to_memory(descriptor, "transitiond-plugin", maximumCopyBytes)
    guard copy >= 0 else { return nil }
    defer { close(copy) }
    return load(descriptor: copy, realPath: realPath)
  }

  /// `dlopen` of `/proc/self/fd/N` for `descriptor`: the handle, or nil and `dlerror`'s
  /// message with the load name replaced by `realPath`.
  private static func load(descriptor: Int32, realPath: String) -> (
    UnsafeMutableRawPointer?, String
  ) {
    DescriptorPath.withLoadName(of: descriptor) {
      name in
      let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL)
      let error = handle == nil ? dlerror().map { String(cString: $0) } : nil
      return (
        (handle, (error ?? "unknown error").replacingOccurrences(of: name, with: realPath)),
        handle != nil
      )
    }
  }

  /// The outcome of a load: its entry symbol called, or why it was refused.
  private static func call(_ opened: (UnsafeMutableRawPointer?, String), realPath: String)
    -> Outcome
  {
    guard let handle = opened.0 else {
      let reason = opened.1
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
