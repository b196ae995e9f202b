import FrameStreaming
import Testing
import TransitionJSON
import TransitionKit
import TransitionWire

/// The bytes of `frame` events are pinned: a renderer writes exactly what the frame path wrote
/// when these hashes were taken (main at 47a932d), for a timeline that uses every field, every
/// calculation mode and every kind of value, at frames all over the transition.
@Suite struct FramePinningTests {
  /// A timeline with static layers, static and animated fields side by side, every property,
  /// every calculation mode, springs and steps, escaped ids, numbers of every magnitude.
  static func timeline() throws -> Timeline {
    var backdrop = LayerAttributes(frame: Rect(x: 0, y: 0, width: 390, height: 844))
    backdrop.background = try Color(hex: "#102030ff")
    var still = LayerAttributes(frame: Rect(x: 16.25, y: 107, width: 171, height: 171))
    still.z = 3
    still.anchor = Point(x: 0, y: 0.5)
    still.alpha = 0.4
    still.transform = .rotation(angle: 0.3, x: 0, y: 0, z: 1)
    var cover = LayerAttributes(frame: Rect(x: 20, y: 120, width: 170, height: 170))
    cover.anchor = Point(x: 0, y: 0.5)
    cover.perspective = -1.0 / 500
    cover.z = 100
    var tiny = LayerAttributes(frame: Rect(x: 1e-9, y: -2.5e-7, width: 0.001, height: 123_456.789))
    tiny.z = -4
    var cell = LayerAttributes(frame: Rect(x: 50, y: 400, width: 128, height: 128))
    cell.alpha = 0
    cell.scaleX = 170.0 / 128
    cell.scaleY = 170.0 / 128
    let key = { (start: Double, duration: Double, value: PropertyValue) in
      Keyframe(start: start, duration: duration, value: value)
    }
    let layers = [
      TimelineLayer(id: "backdrop", initial: backdrop),
      TimelineLayer(id: "still", initial: still, content: .object(["image": .string("a.jpg")])),
      TimelineLayer(
        id: "cover", initial: cover, content: .string("cover.jpg"),
        tracks: [
          PropertyTrack(.rotationY, keyframes: [key(0, 0.5, .number(-.pi))]),
          PropertyTrack(.alpha, keyframes: [key(0.45, 0.05, .number(0))]),
          PropertyTrack(.hidden, mode: .discrete, keyframes: [key(0.9, 0.1, .bool(true))]),
        ]),
      TimelineLayer(
        id: "quo\"te\\d", initial: tiny,
        tracks: [
          PropertyTrack(
            .background,
            keyframes: [key(0.1, 0.6, .color(try Color(hex: "#ff800040")))]),
          PropertyTrack(.z, mode: .discrete, keyframes: [key(0.5, 0.1, .number(7.5))]),
        ]),
      TimelineLayer(
        id: "cell", initial: cell, content: .array([.number(1), .string("x")]),
        tracks: [
          PropertyTrack(.alpha, keyframes: [key(0, 0.7, .number(1))]),
          PropertyTrack(
            .position,
            keyframes: [
              Keyframe(
                start: 0.5, duration: 0.5, value: .point(Point(x: 64, y: 155)),
                curve: .easeInEaseOut)
            ]),
          PropertyTrack(
            .scale,
            keyframes: [
              Keyframe(
                start: 0.5, duration: 0.5, value: .number(1),
                curve: .spring(try Spring(mass: 1, stiffness: 170, damping: 15)))
            ]),
          PropertyTrack(.translationX, keyframes: [key(0.2, 0.3, .number(-33.3333))]),
        ]),
      TimelineLayer(
        id: "paced", initial: LayerAttributes(frame: Rect(x: 10, y: 10, width: 10, height: 10)),
        tracks: [
          PropertyTrack(
            .size, mode: .paced,
            keyframes: [
              key(0, 0.3, .size(Size(width: 200, height: 20))),
              key(0.3, 0.7, .size(Size(width: 20, height: 300))),
            ]),
          PropertyTrack(
            .anchor, mode: .cubic,
            keyframes: [
              key(0, 0.5, .point(Point(x: 1, y: 0))), key(0.5, 0.5, .point(Point(x: 0.2, y: 0.9))),
            ]),
          PropertyTrack(
            .rotationZ,
            keyframes: [
              Keyframe(
                start: 0, duration: 1, value: .number(2),
                curve: .steps(count: 5, position: .end))
            ]),
        ]),
      TimelineLayer(
        id: "matrix", initial: LayerAttributes(frame: Rect(x: -5, y: -5, width: 1000, height: 2)),
        tracks: [
          PropertyTrack(
            .transform,
            keyframes: [
              key(
                0, 1,
                .transform(
                  Transform3D.rotation(angle: 1.2, x: 1, y: 1, z: 0)
                    .concatenating(.translation(x: 12, y: -7, z: 3))
                    .concatenating(.perspective(m34: -1.0 / 800))))
            ]),
          PropertyTrack(.translationZ, keyframes: [key(0, 1, .number(40))]),
          PropertyTrack(.rotationX, keyframes: [key(0.25, 0.5, .number(0.7))]),
          PropertyTrack(.perspective, keyframes: [key(0, 1, .number(-0.004))]),
          PropertyTrack(
            .frame, keyframes: [key(0.6, 0.4, .rect(Rect(x: 1, y: 2, width: 3, height: 4)))]),
        ]),
    ]
    return try Timeline(duration: 0.75, curve: .easeOut, layers: layers)
  }

  /// FNV-1a, 64 bits.
  static func hash(_ bytes: some Sequence<UInt8>, into state: inout UInt64) {
    for byte in bytes {
      state ^= UInt64(byte)
      state &*= 0x100_0000_01b3
    }
  }

  /// Every line `render` gives for 241 frames spread over the transition (and past both ends).
  static func lines(_ render: (Int, Double, Double) -> [UInt8]) -> [[UInt8]] {
    (0...240).map { index in
      let progress = Double(index - 10) / 220
      return render(index, progress, Double(index) * 0.003_141_592)
    }
  }

  @Test func aRendererWritesThePinnedBytes() throws {
    var renderer = FrameRenderer(session: "pin", timeline: try Self.timeline())
    let lines = Self.lines { renderer.render(seq: $0, progress: $1, time: $2) }
    var state: UInt64 = 0xcbf2_9ce4_8422_2325
    for line in lines { Self.hash(line, into: &state) }
    #expect(lines.map(\.count).reduce(0, +) == Self.pinnedByteCount)
    #expect(state == Self.pinnedHash)
    #expect(String(decoding: lines[120], as: UTF8.self) == Self.pinnedLine120)
  }

  @Test func aRendererWritesWhatAFreshEncoderWritesForEachFrame() throws {
    let timeline = try Self.timeline()
    var renderer = FrameRenderer(session: "pin", timeline: timeline)
    let evaluator = TimelineEvaluator(timeline)
    for (index, line) in Self.lines({ renderer.render(seq: $0, progress: $1, time: $2) })
      .enumerated()
    {
      let progress = Double(index - 10) / 220
      var encoder = FrameEncoder()
      let frame = evaluator.frame(progress: progress, time: Double(index) * 0.003_141_592)
      #expect(line == encoder.encode(session: "pin", seq: index, frame: frame), "frame \(index)")
    }
  }

  static let pinnedByteCount = 276796
  static let pinnedHash: UInt64 = 0xb686_bfa2_706b_ad3c
  /// Frame 120, the middle of the transition.
  static let pinnedLine120 = """
    {"event":"frame","session":"pin","seq":120,"t":0.376991,"progress":0.5,"layers":[{"id":"\
    backdrop","frame":[0,0,390,844],"z":0,"background":"#102030ff"},{"id":"still","frame":[1\
    6.25,107,171,171],"anchor":[0,0.5],"transform":[0.9553365,0.2955202,0,0,-0.2955202,0.955\
    3365,0,0,0,0,1,0,0,0,0,1],"alpha":0.4,"z":3,"content":{"image":"a.jpg"}},{"id":"cover","\
    frame":[20,120,170,170],"anchor":[0,0.5],"transform":[-1,0,0,0,0,1,0,0,0,0,-1,0.002,0,0,\
    0,1],"alpha":0,"z":100,"content":"cover.jpg"},{"id":"quo\\"te\\\\d","frame":[0.000000001\
    ,-0.00000025,0.001,123456.789],"z":7.5,"background":"#ff80003e"},{"id":"cell","frame":[3\
    5.79609,312.2198,128,128],"transform":[0.9709285,0,0,0,0,0.9709285,0,0,0,0,1,0,-33.3333,\
    0,0,1],"alpha":0.9780617,"z":0,"content":[1,"x"]},{"id":"paced","frame":[-39.60504,-65.6\
    1439,109.2101,161.2288],"anchor":[0.8000572,0.2295263],"transform":[0.3623578,0.9320391,\
    0,0,-0.9320391,0.3623578,0,0,0,0,1,0,0,0,0,1],"z":0},{"id":"matrix","frame":[-3.730352,-\
    3.518744,789.0269,2.423216],"transform":[0.8427017,0.4279102,-0.32236,0.001327046,0.1598\
    754,0.3947104,0.8954709,-0.002896551,0.5190901,-0.8162459,0.2475284,-0.00126224,8.246643\
    ,-5.125602,26.3497,0.9286521],"z":0}]}\n
    """
}
