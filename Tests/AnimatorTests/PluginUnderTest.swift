import CTransitionPlugin
import DataAnimator
import Foundation
import TransitionKit
import TransitionPluginABI
import TransitionPluginSDK

/// A problem loading or calling an animator in a test.
struct PluginTestError: Error, CustomStringConvertible {
  let description: String
}

/// What one `make_timeline` call returned, with the bytes already copied and freed.
enum PluginAnswer {
  case timeline(Timeline)
  case declined
  case failed(String)

  /// The timeline, or a test error naming what came back instead.
  func timeline() throws -> Timeline {
    switch self {
    case .timeline(let timeline): return timeline
    case .declined: throw PluginTestError(description: "the animator declined")
    case .failed(let message): throw PluginTestError(description: "the animator failed: \(message)")
    }
  }
}

/// One animator of a real built plugin library, reached through the C ABI only.
struct LibraryAnimator: @unchecked Sendable {
  let plugin: UnsafePointer<transitiond_plugin>
  let animator: UnsafePointer<transitiond_animator>

  var name: String { String(cString: animator.pointee.name) }
  /// The ABI's operation bits.
  var operations: UInt32 { animator.pointee.operations }
  var defaultDuration: Double { animator.pointee.default_duration }

  /// Loads `lib<library>.so` from the build products directory and finds the animator `name`.
  init(library: String, animator name: String) throws {
    let path = (Bundle.main.bundlePath as NSString).appendingPathComponent("lib\(library).so")
    guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
      throw PluginTestError(description: "dlopen \(path): \(String(cString: dlerror()))")
    }
    guard let symbol = dlsym(handle, TRANSITIOND_PLUGIN_ENTRY_SYMBOL) else {
      throw PluginTestError(description: "\(path) has no \(TRANSITIOND_PLUGIN_ENTRY_SYMBOL)")
    }
    let entry = unsafeBitCast(symbol, to: transitiond_plugin_entry_fn.self)
    guard let plugin = entry() else { throw PluginTestError(description: "\(path) returned NULL") }
    self.plugin = plugin
    for index in 0..<plugin.pointee.animator_count {
      if let candidate = plugin.pointee.animators[index],
        String(cString: candidate.pointee.name) == name
      {
        animator = candidate
        return
      }
    }
    throw PluginTestError(description: "\(path) has no animator \(name)")
  }

  /// Calls `make_timeline` on raw bytes; returns the status and a copy of the bytes, which are
  /// handed back to `free_bytes`.
  func call(bytes: [UInt8]) -> (status: transitiond_status, bytes: [UInt8]?) {
    var out: UnsafeMutablePointer<UInt8>? = nil
    var length = 0
    let status = bytes.withUnsafeBufferPointer { buffer in
      animator.pointee.make_timeline(
        animator.pointee.animator_data, buffer.baseAddress, buffer.count, &out, &length)
    }
    guard let out else { return (status, nil) }
    let copy = Array(UnsafeBufferPointer(start: out, count: length))
    animator.pointee.free_bytes(animator.pointee.animator_data, out, length)
    return (status, copy)
  }
}

/// One animator as the plugin host runs it: a data animator through
/// `DataAnimator.outcome(forContextJSON:)`, or an animator of a built plugin library through
/// its `make_timeline`. Both answer with the ABI's status and bytes.
struct AnimatorUnderTest: Sendable {
  let name: String
  let operations: Set<TransitionOperation>
  let defaultDuration: Double
  /// Runs the animator on a context's bytes: the status and the timeline's or message's bytes.
  private let answer: @Sendable ([UInt8]) -> (status: transitiond_status, bytes: [UInt8]?)

  /// The data animator `config/animators/<name>.json`.
  init(data name: String) throws {
    let animator = try DataAnimators.load(name)
    self.name = animator.name
    operations = animator.operations
    defaultDuration = animator.defaultDuration
    answer = { bytes in
      switch animator.outcome(forContextJSON: bytes) {
      case .timeline(let timeline): (TRANSITIOND_STATUS_OK, timeline)
      case .declined: (TRANSITIOND_STATUS_DECLINE, nil)
      case .failed(let message): (TRANSITIOND_STATUS_ERROR, Array(message.utf8))
      }
    }
  }

  /// The animator `name` of the built `lib<library>.so`.
  init(library: String, animator name: String) throws {
    let loaded = try LibraryAnimator(library: library, animator: name)
    self.name = loaded.name
    operations = OperationMask.operations(in: loaded.operations) ?? []
    defaultDuration = loaded.defaultDuration
    answer = { loaded.call(bytes: $0) }
  }

  /// Runs the animator on raw bytes; returns the status and a copy of the bytes.
  func call(bytes: [UInt8]) -> (status: transitiond_status, bytes: [UInt8]?) {
    answer(bytes)
  }

  /// Runs the animator on `context`, with an optional `duration` member added to it.
  func run(_ context: TransitionContext, duration: Double? = nil) throws -> PluginAnswer {
    var json = context.json
    if let duration, case .object(var members) = json {
      members["duration"] = .number(duration)
      json = .object(members)
    }
    let (status, bytes) = call(bytes: Array(json.serialized.utf8))
    switch status {
    case TRANSITIOND_STATUS_OK:
      return .timeline(try Timeline(returned: bytes ?? []))
    case TRANSITIOND_STATUS_DECLINE:
      return .declined
    default:
      return .failed(String(decoding: bytes ?? [], as: UTF8.self))
    }
  }

  /// The timeline for `context`, or a test error.
  func timeline(_ context: TransitionContext, duration: Double? = nil) throws -> Timeline {
    try run(context, duration: duration).timeline()
  }
}

/// The built-in animators, as data, and the example Swift plugin.
enum Animators {
  /// The animator `name`: `cube-turn` from libCubeTurn.so, any other from config/animators.
  static func named(_ name: String) throws -> AnimatorUnderTest {
    name == "cube-turn" ? try cubeTurn() : try AnimatorUnderTest(data: name)
  }
  static func albumFlip() throws -> AnimatorUnderTest { try AnimatorUnderTest(data: "album-flip") }
  static func zoomPresent() throws -> AnimatorUnderTest {
    try AnimatorUnderTest(data: "zoom-present")
  }
  static func defaultSlide() throws -> AnimatorUnderTest {
    try AnimatorUnderTest(data: "default-slide")
  }
  static func cubeTurn() throws -> AnimatorUnderTest {
    try AnimatorUnderTest(library: "CubeTurn", animator: "cube-turn")
  }
}
