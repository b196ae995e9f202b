import CTransitionPlugin
import Testing

@testable import TransitionPluginSDK

/// The C descriptor a Swift plugin exports, exercised through its function pointers as the
/// host calls them (no entry symbol needed).
@Suite struct PluginDescriptorTests {
  /// The result of one `make_timeline` call: its status and the bytes it returned (already
  /// handed back to `free_bytes`).
  struct Call {
    var status: transitiond_status
    var bytes: [UInt8]?
    var text: String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }
  }

  private static func plugin() throws -> transitiond_plugin {
    let raw = try #require(
      PluginExport.descriptor(
        plugin: "SDKTestPlugin", version: "2.3.4", animators: [TestAnimator()]))
    return raw.assumingMemoryBound(to: transitiond_plugin.self).pointee
  }

  private static func animator() throws -> transitiond_animator {
    let plugin = try plugin()
    let table = try #require(plugin.animators)
    return try #require(table[0]).pointee
  }

  /// Calls `make_timeline` with `bytes` (nil passes a null pointer with `length`), then
  /// frees what it returned with `free_bytes`.
  private static func call(_ bytes: [UInt8]?, length: Int? = nil) throws -> Call {
    let animator = try animator()
    let makeTimeline = try #require(animator.make_timeline)
    let freeBytes = try #require(animator.free_bytes)
    var out: UnsafeMutablePointer<UInt8>? = nil
    var outLength = 0
    let status: transitiond_status
    if let bytes {
      status = bytes.withUnsafeBufferPointer { buffer in
        makeTimeline(
          animator.animator_data, buffer.baseAddress, length ?? buffer.count, &out, &outLength)
      }
    } else {
      status = makeTimeline(animator.animator_data, nil, length ?? 0, &out, &outLength)
    }
    var result = Call(status: status, bytes: nil)
    if let out {
      result.bytes = Array(UnsafeBufferPointer(start: out, count: outLength))
      freeBytes(animator.animator_data, out, outLength)
    }
    return result
  }

  @Test func descriptorCarriesTheABIAndNames() throws {
    let plugin = try Self.plugin()
    #expect(plugin.abi_version == UInt32(TRANSITIOND_PLUGIN_ABI_VERSION))
    #expect(plugin.struct_size == UInt32(MemoryLayout<transitiond_plugin>.size))
    #expect(String(cString: try #require(plugin.name)) == "SDKTestPlugin")
    #expect(String(cString: try #require(plugin.version)) == "2.3.4")
    #expect(plugin.animator_count == 1)

    let animator = try Self.animator()
    #expect(String(cString: try #require(animator.name)) == "sdk-test")
    #expect(animator.operations == 0x1 | 0x2)
    #expect(animator.default_duration == 0.4)
    #expect(animator.struct_size == UInt32(MemoryLayout<transitiond_animator>.size))
  }

  @Test func descriptorIsBuiltOncePerPlugin() throws {
    let first = PluginExport.descriptor(
      plugin: "SDKTestPlugin", version: "2.3.4", animators: [TestAnimator()])
    let second = PluginExport.descriptor(plugin: "SDKTestPlugin", version: "9", animators: [])
    #expect(first != nil)
    #expect(first == second)
  }

  @Test func operationMaskHasOneBitPerOperation() {
    #expect(PluginAPI.operationMask([]) == 0)
    #expect(PluginAPI.operationMask([.push]) == 0x1)
    #expect(PluginAPI.operationMask([.pop]) == 0x2)
    #expect(PluginAPI.operationMask([.present]) == 0x4)
    #expect(PluginAPI.operationMask([.dismiss]) == 0x8)
    #expect(PluginAPI.operationMask([.push, .pop, .present, .dismiss]) == 0xF)
  }

  @Test func okReturnsTimelineBytesThatDecode() throws {
    let result = try Self.call(Array(contextJSON("push", hints: #""duration": 0.75"#).utf8))
    #expect(result.status == TRANSITIOND_STATUS_OK)
    // The SDK answers in the binary form, which the host tells from JSON by its first bytes.
    let bytes = try #require(result.bytes)
    #expect(Timeline.isBinaryForm(bytes))
    let timeline = try Timeline(binary: bytes)
    #expect(timeline.duration == 0.75)
    #expect(timeline.layers.map(\.id) == ["sdk-test.fill"])
  }

  @Test func declineReturnsNoBytes() throws {
    let unserved = try Self.call(Array(contextJSON("dismiss").utf8))
    #expect(unserved.status == TRANSITIOND_STATUS_DECLINE)
    #expect(unserved.bytes == nil)
    let declined = try Self.call(Array(contextJSON("pop", hints: #""decline": 1"#).utf8))
    #expect(declined.status == TRANSITIOND_STATUS_DECLINE)
    #expect(declined.bytes == nil)
  }

  @Test func errorReturnsTheMessage() throws {
    let failed = try Self.call(Array(contextJSON("push", hints: #""fail": true"#).utf8))
    #expect(failed.status == TRANSITIOND_STATUS_ERROR)
    #expect(failed.text == "asked to fail")
  }

  @Test func badContextIsAnErrorWithAMessage() throws {
    let result = try Self.call(Array("{\"operation\": ".utf8))
    #expect(result.status == TRANSITIOND_STATUS_ERROR)
    #expect(result.text.hasPrefix("not valid JSON: "), "\(result.text)")
  }

  @Test func missingContextBytesAreAnError() throws {
    let result = try Self.call(nil, length: 10)
    #expect(result.status == TRANSITIOND_STATUS_ERROR)
    #expect(result.text == "the context bytes are missing")
  }

  @Test func missingOutputPointersAreAnError() throws {
    let animator = try Self.animator()
    let makeTimeline = try #require(animator.make_timeline)
    let bytes = Array(contextJSON("push").utf8)
    let status = bytes.withUnsafeBufferPointer { buffer in
      makeTimeline(animator.animator_data, buffer.baseAddress, buffer.count, nil, nil)
    }
    #expect(status == TRANSITIOND_STATUS_ERROR)
  }
}
