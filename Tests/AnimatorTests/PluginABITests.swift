import CTransitionPlugin
import Testing
import TransitionKit

/// The C side of a Swift plugin: descriptors, statuses, messages and memory, through the real
/// library of the example plugin on the SDK (libCubeTurn.so).
@Suite struct PluginABITests {
  static let libraries:
    [(library: String, animator: String, operations: UInt32, duration: Double)] = [
      ("CubeTurn", "cube-turn", 0xC, 0.6)
    ]

  @Test func descriptorsFollowTheHeader() throws {
    for expected in Self.libraries {
      let loaded = try LibraryAnimator(library: expected.library, animator: expected.animator)
      let plugin = loaded.plugin.pointee
      #expect(plugin.abi_version == UInt32(TRANSITIOND_PLUGIN_ABI_VERSION))
      #expect(plugin.struct_size == UInt32(MemoryLayout<transitiond_plugin>.size))
      #expect(String(cString: plugin.name) == expected.library)
      #expect(String(cString: plugin.version) == "1.0.0")
      #expect(plugin.animator_count == 1)
      let animator = loaded.animator.pointee
      #expect(animator.struct_size == UInt32(MemoryLayout<transitiond_animator>.size))
      #expect(loaded.name == expected.animator)
      #expect(loaded.operations == expected.operations)
      #expect(loaded.defaultDuration == expected.duration)
      // The entry hands out one static descriptor, however often it is called.
      let again = try LibraryAnimator(library: expected.library, animator: expected.animator)
      #expect(again.plugin == loaded.plugin && again.animator == loaded.animator)
    }
  }

  @Test func badBytesAreErrorsWithAMessageNotCrashes() throws {
    let animator = try Animators.cubeTurn()
    let inputs: [[UInt8]] = [
      [], Array("{".utf8), Array("[1,2]".utf8), [0xff, 0xfe, 0x00],
      Array(#"{"operation":"present"}"#.utf8),
      Array(#"{"operation":"fly","container":[1,1],"from":{},"to":{}}"#.utf8),
      Array(
        #"{"operation":"present","container":[1,1],"from":{"layers":[{"id":"a","frame":[0,0,1,1]}]},"to":{"layers":[{"id":"a","frame":[0,0,1,1]}]},"selected":"a"}"#
          .utf8),
    ]
    for input in inputs {
      let (status, bytes) = animator.call(bytes: input)
      #expect(status == TRANSITIOND_STATUS_ERROR, "\(String(decoding: input, as: UTF8.self))")
      let message = String(decoding: bytes ?? [], as: UTF8.self)
      // The daemon names the animator when it reports the failure; the message does not.
      #expect(!message.isEmpty && !message.hasPrefix("cube-turn"), "\(message)")
    }
    let (_, duplicate) = animator.call(bytes: inputs[6])
    #expect(String(decoding: duplicate ?? [], as: UTF8.self).contains("context.to.layers[0].id"))
  }

  @Test func missingOutputPointersAreAnErrorNotACrash() throws {
    let animator = try LibraryAnimator(library: "CubeTurn", animator: "cube-turn")
    let context = Array(Scenes.slide(.present, Layout.all[0]).json.serialized.utf8)
    let status = context.withUnsafeBufferPointer { buffer in
      animator.animator.pointee.make_timeline(
        animator.animator.pointee.animator_data, buffer.baseAddress, buffer.count, nil, nil)
    }
    #expect(status == TRANSITIOND_STATUS_ERROR)
  }

  /// Through the C ABI (cube-turn) and as the plugin host runs a data animator (zoom-present,
  /// whose dismiss has its own default): the same SDK code decides the duration.
  @Test func durationComesFromTheContextOrTheDefault() throws {
    let cases: [(AnimatorUnderTest, TransitionContext, Double)] = [
      (try Animators.cubeTurn(), Scenes.slide(.dismiss, Layout.all[2]), 0.6),
      (try Animators.zoomPresent(), Scenes.zoomDismiss(Layout.all[2]), 0.6),
      (try Animators.zoomPresent(), Scenes.zoomPresent(Layout.all[2]), 0.5),
    ]
    for (animator, context, defaultDuration) in cases {
      #expect(try animator.timeline(context).duration == defaultDuration, "\(animator.name)")
      #expect(try animator.timeline(context, duration: 1.25).duration == 1.25)
      for bad in [-1.0, 0] {
        guard case .failed(let message) = try animator.run(context, duration: bad) else {
          Issue.record("\(animator.name): duration \(bad) was accepted")
          continue
        }
        #expect(message.contains("duration"))
      }
      var json = context.json
      if case .object(var members) = json {
        members["duration"] = .string("fast")
        json = .object(members)
      }
      let (status, _) = animator.call(bytes: Array(json.serialized.utf8))
      #expect(status == TRANSITIOND_STATUS_ERROR, "\(animator.name)")
    }
  }

  @Test func anOperationOutsideTheAnimatorsIsDeclined() throws {
    var present = Scenes.albumPush(Layout.all[0])
    present.operation = .present
    guard case .declined = try Animators.albumFlip().run(present) else {
      Issue.record("album-flip served a present")
      return
    }
    var push = Scenes.zoomPresent(Layout.all[0])
    push.operation = .push
    guard case .declined = try Animators.zoomPresent().run(push) else {
      Issue.record("zoom-present served a push")
      return
    }
    guard case .declined = try Animators.cubeTurn().run(Scenes.slide(.push, Layout.all[0])) else {
      Issue.record("cube-turn served a push")
      return
    }
  }

  /// Every layer of both screens is in the timeline with its own id; the animator's own layers
  /// carry its name as a prefix.
  @Test(arguments: Layout.all)
  func everyContextLayerAppearsOnceAndExtrasArePrefixed(layout: Layout) throws {
    let slide = try Animators.defaultSlide()
    let cube = try Animators.cubeTurn()
    let cases: [(AnimatorUnderTest, TransitionContext)] =
      [
        (try Animators.albumFlip(), Scenes.albumPush(layout)),
        (try Animators.albumFlip(), Scenes.albumPop(layout)),
        (try Animators.zoomPresent(), Scenes.zoomPresent(layout)),
        (try Animators.zoomPresent(), Scenes.zoomDismiss(layout)),
      ]
      + TransitionOperation.allCases.map { (slide, Scenes.slide($0, layout)) }
      + [TransitionOperation.present, .dismiss].map { (cube, Scenes.slide($0, layout)) }
    for (animator, context) in cases {
      let timeline = try animator.timeline(context)
      let ids = timeline.layers.map(\.id)
      let contextIDs = (context.from.layers + context.to.layers).map(\.id)
      #expect(Set(contextIDs).isSubset(of: Set(ids)), "\(animator.name) \(context.operation)")
      for id in ids where !contextIDs.contains(id) {
        #expect(id.hasPrefix(animator.name + "."), "\(id)")
      }
      for layer in context.from.layers + context.to.layers {
        #expect(timeline.layers.first { $0.id == layer.id }?.content == layer.content)
      }
    }
  }
}
