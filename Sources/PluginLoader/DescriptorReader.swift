import CTransitionPlugin
import PluginValues
import TransitionKit
import TransitionPluginABI

/// Reads and checks a plugin descriptor, ABI version first.
///
/// Only what the ABI allows is read: the `abi_version` field before anything else, then the
/// fields that lie within the descriptor's `struct_size`. The strings are copied, so nothing
/// from the plugin's memory but function pointers outlives the read.
enum DescriptorReader {
  /// A descriptor that passed the plugin-level checks.
  struct Plugin {
    let name: String
    let version: String
    /// The animators that passed their checks, in descriptor order.
    let animators: [LoadedAnimator]
    /// One diagnostic for each animator refused.
    let refusals: [PluginDiagnostic]
  }

  enum Outcome {
    case plugin(Plugin)
    case refused(PluginDiagnostic)
  }

  /// The most animators one plugin may declare.
  static let maximumAnimatorCount = 1024

  static func read(_ raw: UnsafeRawPointer, libraryPath path: String) -> Outcome {
    let abiVersion = raw.load(as: UInt32.self)
    let expected = UInt32(TRANSITIOND_PLUGIN_ABI_VERSION)
    guard abiVersion == expected else {
      return .refused(
        PluginDiagnostic(
          .abiMismatch, .error, path: path,
          "plugin \(path) has ABI version \(abiVersion), transitiond speaks \(expected); refused"))
    }
    let structSize = raw.load(
      fromByteOffset: MemoryLayout<transitiond_plugin>.offset(of: \.struct_size) ?? 4,
      as: UInt32.self)
    guard Int(structSize) >= MemoryLayout<transitiond_plugin>.size else {
      return .refused(
        invalid(
          path,
          "declares a descriptor of \(structSize) bytes, smaller than the "
            + "\(MemoryLayout<transitiond_plugin>.size) of ABI version \(expected)"))
    }
    let descriptor = raw.assumingMemoryBound(to: transitiond_plugin.self).pointee
    guard let name = string(descriptor.name), !name.isEmpty else {
      return .refused(invalid(path, "has no name (NULL, empty or not UTF-8)"))
    }
    guard let version = string(descriptor.version), !version.isEmpty else {
      return .refused(invalid(path, "has no version (NULL, empty or not UTF-8)"))
    }
    let count = descriptor.animator_count
    guard count <= maximumAnimatorCount else {
      return .refused(
        invalid(path, "declares \(count) animators, more than \(maximumAnimatorCount)"))
    }
    guard count == 0 || descriptor.animators != nil else {
      return .refused(invalid(path, "declares \(count) animators but no animator array"))
    }
    var animators: [LoadedAnimator] = []
    var refusals: [PluginDiagnostic] = []
    for index in 0..<count {
      switch animator(
        descriptor.animators[index], index: index, pluginName: name, version: version, path: path)
      {
      case .success(let animator): animators.append(animator)
      case .failure(let refusal): refusals.append(refusal.diagnostic)
      }
    }
    return .plugin(Plugin(name: name, version: version, animators: animators, refusals: refusals))
  }

  /// A refused animator, as an error so that `Result` can carry it.
  struct AnimatorRefusal: Error { let diagnostic: PluginDiagnostic }

  private static func animator(
    _ pointer: UnsafePointer<transitiond_animator>?, index: Int, pluginName: String,
    version: String, path: String
  ) -> Result<LoadedAnimator, AnimatorRefusal> {
    func refuse(_ reason: String) -> Result<LoadedAnimator, AnimatorRefusal> {
      .failure(
        AnimatorRefusal(
          diagnostic: PluginDiagnostic(
            .invalidAnimator, .error, path: path,
            "animator #\(index) of plugin \(path) \(reason); refused")))
    }
    guard let pointer else { return refuse("is NULL") }
    let structSize = UnsafeRawPointer(pointer).load(as: UInt32.self)
    guard Int(structSize) >= MemoryLayout<transitiond_animator>.size else {
      return refuse(
        "declares a descriptor of \(structSize) bytes, smaller than the "
          + "\(MemoryLayout<transitiond_animator>.size) of ABI version "
          + "\(TRANSITIOND_PLUGIN_ABI_VERSION)")
    }
    let animator = pointer.pointee
    guard let name = string(animator.name), AnimatorName.isValid(name) else {
      return refuse(
        "has an invalid name (\(AnimatorName.rule))")
    }
    guard animator.operations != 0,
      let operations = OperationMask.operations(in: animator.operations)
    else {
      return refuse(
        "(\(name)) declares operations 0x\(String(animator.operations, radix: 16)): none or reserved bits"
      )
    }
    let duration = animator.default_duration
    guard duration.isFinite, duration > 0 else {
      return refuse("(\(name)) declares default duration \(duration); it must be finite and > 0")
    }
    guard let makeTimeline = animator.make_timeline, let freeBytes = animator.free_bytes else {
      return refuse("(\(name)) lacks make_timeline or free_bytes")
    }
    let info = RegisteredAnimator(
      name: name, operations: operations, defaultDuration: duration, pluginName: pluginName,
      pluginVersion: version, libraryPath: path)
    return .success(
      LoadedAnimator(
        info: info, makeTimeline: makeTimeline, freeBytes: freeBytes,
        animatorData: animator.animator_data))
  }

  private static func invalid(_ path: String, _ reason: String) -> PluginDiagnostic {
    PluginDiagnostic(.invalidDescriptor, .error, path: path, "plugin \(path) \(reason); refused")
  }

  private static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.flatMap { String(validatingCString: $0) }
  }
}
