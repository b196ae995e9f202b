// The animator contract's Swift face, as one file: what transitiond_plugin.h says in C, said
// for a plugin written in Swift. A plugin imports this module alone; with it come the engine's
// types (the `Animator` protocol, `TransitionContext`, `Timeline`, `AnimatorOutcome`), the
// ABI's constants and layout (``PluginAPI``), and the one call that makes the descriptor its
// entry symbol returns (``PluginExport/descriptor(plugin:version:animators:)``).
// PluginAPITests checks this file against the header as a C compiler reads it.

import CTransitionPlugin
import Synchronization
@_exported import TransitionKit
import TransitionPluginABI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// transitiond_plugin.h's constants and layout, as Swift values.
public enum PluginAPI {
  /// `TRANSITIOND_PLUGIN_ABI_VERSION`: what a descriptor's `abi_version` holds; the daemon
  /// refuses a plugin built against any other.
  public static let abiVersion = UInt32(TRANSITIOND_PLUGIN_ABI_VERSION)
  /// `TRANSITIOND_PLUGIN_ENTRY_SYMBOL`: the one symbol a plugin exports.
  public static let entrySymbol = TRANSITIOND_PLUGIN_ENTRY_SYMBOL
  /// `sizeof(transitiond_plugin)`: a plugin descriptor's `struct_size`.
  public static let pluginStructSize = UInt32(MemoryLayout<transitiond_plugin>.size)
  /// `sizeof(transitiond_animator)`: an animator descriptor's `struct_size`.
  public static let animatorStructSize = UInt32(MemoryLayout<transitiond_animator>.size)

  /// What `make_timeline` returns: the `TRANSITIOND_STATUS_` values, one for each
  /// ``AnimatorOutcome``.
  public enum Status: transitiond_status, CaseIterable, Sendable {
    /// `TRANSITIOND_STATUS_OK`: the timeline is in the out bytes.
    case ok = 0
    /// `TRANSITIOND_STATUS_DECLINE`: the daemon falls back to `default-slide`.
    case declined = 1
    /// `TRANSITIOND_STATUS_ERROR`: the out bytes, if any, hold the message.
    case failed = 2

    /// The status of `outcome`.
    public init(_ outcome: AnimatorOutcome) {
      switch outcome {
      case .timeline: self = .ok
      case .declined: self = .declined
      case .failed: self = .failed
      }
    }
  }

  /// The ABI's bit of each operation in an animator's `operations` mask.
  public static func operationMask(_ operations: Set<TransitionOperation>) -> UInt32 {
    OperationMask.mask(operations)
  }
}

/// Builds the C descriptor that a Swift plugin's entry symbol returns.
///
/// A plugin's whole entry point is one line:
/// ```swift
/// @_cdecl("transitiond_plugin_entry")
/// public func transitiondPluginEntry() -> UnsafeRawPointer? {
///   PluginExport.descriptor(plugin: "CubeTurn", version: "1.0.0", animators: [CubeTurnAnimator()])
/// }
/// ```
public enum PluginExport {
  /// The plugin descriptor (`const transitiond_plugin *`) for `plugin`, built on the first call.
  ///
  /// The descriptor, its animator table and its strings are allocated once and never freed,
  /// as the ABI requires of static data; later calls with the same plugin name return the same
  /// pointer and ignore their arguments. Each animator's `make_timeline` runs
  /// `Animator.outcome(forContextJSON:encoding:)` and hands back the timeline's binary form in
  /// bytes allocated with `malloc`, which its `free_bytes` releases with `free`.
  /// - Parameters:
  ///   - plugin: the plugin's name for listings and logs; non-empty.
  ///   - version: the plugin's version, such as `1.0.0`; non-empty.
  ///   - animators: the plugin's animators, in listing order.
  /// - Returns: the descriptor, to be returned from `transitiond_plugin_entry` as is.
  public static func descriptor(plugin: String, version: String, animators: [any Animator])
    -> UnsafeRawPointer?
  {
    builtDescriptors.withLock { built in
      if let address = built[plugin] { return UnsafeRawPointer(bitPattern: address) }
      let descriptor = makeDescriptor(plugin: plugin, version: version, animators: animators)
      built[plugin] = UInt(bitPattern: descriptor)
      return UnsafeRawPointer(descriptor)
    }
  }

  /// The addresses of the descriptors built so far, by plugin name.
  private static let builtDescriptors = Mutex<[String: UInt]>([:])

  private static func makeDescriptor(plugin: String, version: String, animators: [any Animator])
    -> UnsafeMutablePointer<transitiond_plugin>
  {
    let table = UnsafeMutablePointer<UnsafePointer<transitiond_animator>?>.allocate(
      capacity: max(animators.count, 1))
    for (index, animator) in animators.enumerated() {
      let entry = UnsafeMutablePointer<transitiond_animator>.allocate(capacity: 1)
      entry.initialize(
        to: transitiond_animator(
          struct_size: PluginAPI.animatorStructSize,
          operations: PluginAPI.operationMask(animator.operations),
          name: permanentCString(animator.name),
          default_duration: animator.defaultDuration,
          make_timeline: makeTimeline,
          free_bytes: freeBytes,
          animator_data: Unmanaged.passRetained(AnimatorBox(animator)).toOpaque()))
      (table + index).initialize(to: UnsafePointer(entry))
    }
    let descriptor = UnsafeMutablePointer<transitiond_plugin>.allocate(capacity: 1)
    descriptor.initialize(
      to: transitiond_plugin(
        abi_version: PluginAPI.abiVersion,
        struct_size: PluginAPI.pluginStructSize,
        name: permanentCString(plugin),
        version: permanentCString(version),
        animators: UnsafePointer(table),
        animator_count: animators.count))
    return descriptor
  }

  /// A NUL-terminated copy of `text` that is never freed.
  private static func permanentCString(_ text: String) -> UnsafePointer<CChar>? {
    text.withCString { UnsafePointer(strdup($0)) }
  }
}

/// Keeps an animator alive behind the `animator_data` pointer of its C descriptor.
private final class AnimatorBox: Sendable {
  let animator: any Animator
  init(_ animator: any Animator) { self.animator = animator }
}

/// `make_timeline` of every Swift animator: decodes, runs and encodes through
/// `Animator.outcome(forContextJSON:encoding:)`, the timeline in its binary form
/// (`Timeline.binaryEncoded`), which the host tells from JSON by its first bytes and the
/// daemon reads without parsing numbers as text.
private let makeTimeline: transitiond_make_timeline_fn = {
  animatorData, contextJSON, contextLength, outBytes, outLength in
  guard let animatorData, let outBytes, let outLength else {
    return PluginAPI.Status.failed.rawValue
  }
  let animator = Unmanaged<AnimatorBox>.fromOpaque(animatorData).takeUnretainedValue().animator
  let outcome: AnimatorOutcome
  if contextLength < 0 || (contextJSON == nil && contextLength > 0) {
    outcome = .failed("the context bytes are missing")
  } else {
    outcome = animator.outcome(
      forContextJSON: UnsafeBufferPointer(start: contextJSON, count: contextLength),
      encoding: .binary)
  }
  switch outcome {
  case .timeline(let bytes):
    guard let copy = mallocCopy(bytes) else { return PluginAPI.Status.failed.rawValue }
    outBytes.pointee = copy
    outLength.pointee = bytes.count
  case .declined:
    break
  case .failed(let message):
    let bytes = Array(message.utf8)
    if let copy = mallocCopy(bytes) {
      outBytes.pointee = copy
      outLength.pointee = bytes.count
    }
  }
  return PluginAPI.Status(outcome).rawValue
}

/// `free_bytes` of every Swift animator.
private let freeBytes: transitiond_free_bytes_fn = { _, bytes, _ in
  free(bytes)
}

/// `bytes` copied into memory from `malloc`, or nil when it is out of memory.
private func mallocCopy(_ bytes: [UInt8]) -> UnsafeMutablePointer<UInt8>? {
  guard let memory = malloc(max(bytes.count, 1)) else { return nil }
  let typed = memory.bindMemory(to: UInt8.self, capacity: max(bytes.count, 1))
  bytes.withUnsafeBufferPointer { source in
    if let base = source.baseAddress { typed.update(from: base, count: bytes.count) }
  }
  return typed
}
