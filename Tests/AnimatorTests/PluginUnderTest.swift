import CTransitionPlugin
import Foundation
import TransitionKit

/// A problem loading or calling a plugin library in a test.
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
struct AnimatorUnderTest: @unchecked Sendable {
  let plugin: UnsafePointer<transitiond_plugin>
  let animator: UnsafePointer<transitiond_animator>

  var name: String { String(cString: animator.pointee.name) }
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
      return .timeline(try Timeline(jsonBytes: bytes ?? []))
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

/// The three animators of the built plugin libraries.
enum Animators {
  static func albumFlip() throws -> AnimatorUnderTest {
    try AnimatorUnderTest(library: "AlbumFlip", animator: "album-flip")
  }
  static func zoomPresent() throws -> AnimatorUnderTest {
    try AnimatorUnderTest(library: "ZoomPresent", animator: "zoom-present")
  }
  static func defaultSlide() throws -> AnimatorUnderTest {
    try AnimatorUnderTest(library: "DefaultSlide", animator: "default-slide")
  }
}
