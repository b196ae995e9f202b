import TransitionJSON

/// One layer of a timeline: its initial state, its pass-through content and its tracks.
public struct TimelineLayer: Equatable, Sendable {
  public var id: String
  public var initial: LayerAttributes
  /// Opaque JSON handed to renderers unchanged (an image name, a text…).
  public var content: JSONValue?
  public var tracks: [PropertyTrack]

  public init(
    id: String, initial: LayerAttributes, content: JSONValue? = nil, tracks: [PropertyTrack] = []
  ) {
    self.id = id
    self.initial = initial
    self.content = content
    self.tracks = tracks
  }
}

/// The declarative description of a whole transition, which the engine evaluates at any time.
///
/// `curve` is applied to the timeline's own time (the keyframe block's curve): at linear
/// progress `p`, keyframes are evaluated at relative time `curve.value(at: p)`.
///
/// Overlapping keyframes on one property: keyframes are ordered by start (ties keep their
/// order); at any time the keyframe that started last is in charge, and it starts from the value
/// the property had at its start, so the value never jumps when one keyframe takes over from
/// another.
public struct Timeline: Equatable, Sendable {
  public private(set) var duration: Double
  public private(set) var curve: TimingCurve
  public private(set) var layers: [TimelineLayer]
  /// How the timeline follows a finger, if it does (``TimelineGesture``); nil for a timeline
  /// driven by progress alone.
  public private(set) var gesture: TimelineGesture?
  /// Seconds a session playing this timeline takes to hand over from a session it interrupts
  /// (``Handover``); nil for the daemon's default (``Handover/defaultDuration``). In
  /// (0, ``maximumHandover``].
  public private(set) var handover: Double?
  /// What the animator wants the client told about this timeline, one line each (a `begin`
  /// reply's `warnings`): for example that it guessed what the context did not say. At most
  /// `maximumWarnings` of at most `maximumWarningLength` characters; extra ones are dropped.
  public var warnings: [String] = [] {
    didSet {
      if warnings.count > Self.maximumWarnings
        || warnings.contains(where: { $0.count > Self.maximumWarningLength })
      {
        warnings = warnings.prefix(Self.maximumWarnings).map {
          String($0.prefix(Self.maximumWarningLength))
        }
      }
    }
  }
  public static let maximumWarnings = 16
  public static let maximumWarningLength = 500

  /// Largest magnitude of any number a timeline's values carry (initial values and keyframe
  /// values). With every value this small, evaluating (interpolating, composing transforms,
  /// easing with a bounded curve) stays far from overflow, so every frame is finite.
  public static let maximumValueMagnitude = 1e15
  /// The longest timeline, in seconds (the largest `limits.maxSessionSeconds` the daemon
  /// accepts; the daemon's configured limit is usually far lower).
  public static let maximumDuration = 1e9
  /// The longest handover a timeline may ask for, in seconds.
  public static let maximumHandover = 10.0
  /// The longest id, in UTF-8 bytes, that a `clipTo` may name (which bounds a frame's text).
  public static let maximumClipIDLength = LayerName.capacity

  /// A validated timeline.
  /// - Throws: `EngineError` naming the first problem: a duration that is not positive and
  ///   finite or over `maximumDuration`, no layers, an empty or repeated layer id, a non-finite
  ///   initial value, a track repeated or without keyframes, a keyframe outside [0, 1], a value
  ///   of the wrong kind or over `maximumValueMagnitude`, an invalid or unbounded curve, a
  ///   gesture that `TimelineGesture` refuses (a held id the timeline lacks, a bad range), a
  ///   handover outside (0, `maximumHandover`].
  public init(
    duration: Double, curve: TimingCurve = .linear, layers: [TimelineLayer],
    gesture: TimelineGesture? = nil, handover: Double? = nil
  ) throws(EngineError) {
    try EngineError.requireFinite(duration, "duration")
    guard duration > 0 else {
      throw EngineError(.outOfRange, "duration must be positive, got \(duration)")
    }
    guard duration <= Self.maximumDuration else {
      throw EngineError(
        .outOfRange, "duration must be at most \(Self.maximumDuration) s, got \(duration)")
    }
    guard !layers.isEmpty else { throw EngineError(.empty, "a timeline needs at least one layer") }
    self.duration = duration
    self.curve = try curve.validated()
    try curve.requireBounded("curve.")
    self.layers = layers
    var seen = Set<String>()
    seen.reserveCapacity(layers.count)
    // Through a pointer, so that no layer is copied out of the array (a timeline is checked
    // on every `begin`, in the plugin host and again in the daemon).
    try layers.withUnsafeBufferPointer { layers throws(EngineError) in
      for index in layers.indices {
        let layer = layers.baseAddress.unsafelyUnwrapped + index
        // Paths are written only into errors: a valid timeline builds none.
        guard !layer.pointee.id.isEmpty else {
          throw EngineError(.empty, "layers[\(index)].id must not be empty")
        }
        guard seen.insert(layer.pointee.id).inserted else {
          throw EngineError(
            .duplicate, "layers[\(index)].id \"\(layer.pointee.id)\" is used by another layer")
        }
        try Self.validate(layer, index: index)
      }
      try Self.validateClips(layers)
    }
    try gesture?.validate(layerIDs: seen, path: "gesture")
    self.gesture = gesture
    if let handover { try Self.requireValidHandover(handover, "handover") }
    self.handover = handover
  }

  /// Checks every `clipTo` a layer may take (its initial value and its track's keyframes):
  /// each names a layer of the timeline in at most ``maximumClipIDLength`` bytes, and no chain
  /// of them, taken over every value each layer may have, comes back to where it started.
  ///
  /// One pass over the values with an id table, then one depth-first walk with its own stack:
  /// linear in the layers and values, and a chain of any length (a plugin's 20,000 layers, each
  /// clipped to the next) takes no more of the thread's stack than a short one.
  /// - Throws: `EngineError` (`invalid_value`) naming the value's path and, for a loop, the
  ///   chain.
  private static func validateClips(
    _ layers: UnsafeBufferPointer<TimelineLayer>
  ) throws(EngineError) {
    var position: [String: Int] = [:]
    var targets: [[Int]] = []
    var clipped: [Int] = []
    for index in layers.indices {
      let layer = layers.baseAddress.unsafelyUnwrapped + index
      var named: [(path: String, id: String)] = []
      if let name = layer.pointee.initial.clipTarget {
        guard !name.isTruncated else {
          throw EngineError(
            .outOfRange,
            "layers[\(index)].clipTo names an id of more than \(maximumClipIDLength) bytes, "
              + "which no clip may name")
        }
        named.append(("layers[\(index)].clipTo", name.string))
      }
      for (trackIndex, track) in layer.pointee.tracks.enumerated() where track.property == .clipTo {
        for (keyIndex, keyframe) in track.keyframes.enumerated() {
          guard case .layer(let id?) = keyframe.value else { continue }
          named.append(("layers[\(index)].tracks[\(trackIndex)].keyframes[\(keyIndex)].value", id))
        }
      }
      guard !named.isEmpty else { continue }
      if targets.isEmpty {
        // Built at the first clip only: most timelines have none.
        targets = Array(repeating: [], count: layers.count)
        position.reserveCapacity(layers.count)
        for (at, layer) in layers.enumerated() { position[layer.id] = at }
      }
      clipped.append(index)
      for (path, id) in named {
        guard id.utf8.count <= maximumClipIDLength else {
          throw EngineError(
            .outOfRange,
            "\(path) names an id of more than \(maximumClipIDLength) bytes, which no clip may name")
        }
        guard let target = position[id] else {
          throw EngineError(.invalidValue, "\(path) \"\(id)\" is no layer of the timeline")
        }
        targets[index].append(target)
      }
    }
    guard !clipped.isEmpty else { return }
    // Depth first: a layer met again while its own chain is open closes a loop. `chain` is the
    // open path, `next[k]` the next target of `chain[k]` to follow.
    var state = [UInt8](repeating: 0, count: layers.count)  // 0 new, 1 open, 2 done
    var chain: [Int] = []
    var next: [Int] = []
    for root in clipped where state[root] == 0 {
      state[root] = 1
      chain.append(root)
      next.append(0)
      while let index = chain.last {
        let edge = next[next.count - 1]
        guard edge < targets[index].count else {
          state[index] = 2
          chain.removeLast()
          next.removeLast()
          continue
        }
        next[next.count - 1] = edge + 1
        let target = targets[index][edge]
        if state[target] == 1 {
          let loop = chain[chain.lastIndex(of: target)!...] + [target]
          throw EngineError(
            .invalidValue,
            "layers[\(index)].clipTo forms a loop: "
              + ClipChainText.describe(loop) { layers[$0].id })
        }
        if state[target] == 0 {
          state[target] = 1
          chain.append(target)
          next.append(0)
        }
      }
    }
  }

  /// Whether `seconds` is a handover a timeline may ask for: in (0, `maximumHandover`].
  public static func isValidHandover(_ seconds: Double) -> Bool {
    seconds > 0 && seconds <= maximumHandover
  }

  /// Throws unless `seconds` is a handover a timeline may ask for (``isValidHandover(_:)``).
  /// - Throws: `EngineError` naming `path`.
  static func requireValidHandover(_ seconds: Double, _ path: String) throws(EngineError) {
    try EngineError.requireFinite(seconds, path)
    guard isValidHandover(seconds) else {
      throw EngineError(
        .outOfRange,
        "\(path) must be in (0, \(JSONValue.format(maximumHandover))] seconds, got "
          + JSONValue.format(seconds))
    }
  }

  private static func validate(
    _ layer: UnsafePointer<TimelineLayer>, index: Int
  ) throws(EngineError) {
    var path: String { "layers[\(index)]" }
    // A timeline is checked on every `begin`: the numbers in one pass, and only when one is
    // out of bounds property by property, to name it.
    if !layer.pointee.initial.numbersAreWithin(maximumValueMagnitude) {
      let initial = layer.pointee.initial
      for property in LayerProperty.allCases where !initial.value(of: property).isFinite {
        throw EngineError(.nonFinite, "\(path).\(property.rawValue) must be finite")
      }
      // `position` and `size` are read from `frame`, which is checked itself.
      for property in LayerProperty.allCases where property != .position && property != .size {
        let value = initial.value(of: property)
        guard !value.isWithin(maximumValueMagnitude) else { continue }
        throw EngineError(
          .outOfRange,
          "\(path).\(property.rawValue) must be within ±\(maximumValueMagnitude), got \(value.json.serialized)"
        )
      }
    }
    guard layer.pointee.initial.frame.width >= 0, layer.pointee.initial.frame.height >= 0 else {
      throw EngineError(.outOfRange, "\(path).frame must not have a negative size")
    }
    for property in LayerProperty.lengths {
      guard case .number(let length) = layer.pointee.initial.value(of: property), length < 0
      else { continue }
      throw EngineError(
        .outOfRange,
        "\(path).\(property.rawValue) must not be negative, got \(JSONValue.format(length))")
    }
    var animated = LayerPropertySet()
    // Tracks and keyframes are read through pointers too: a keyframe is as large as a
    // transform and a spring together.
    try layer.pointee.tracks.withUnsafeBufferPointer { tracks throws(EngineError) in
      for trackIndex in tracks.indices {
        let track = tracks.baseAddress.unsafelyUnwrapped + trackIndex
        var trackPath: String { "\(path).tracks[\(trackIndex)]" }
        let property = track.pointee.property
        guard animated.insert(property) else {
          throw EngineError(.duplicate, "\(trackPath) animates \(property.rawValue) a second time")
        }
        guard !track.pointee.keyframes.isEmpty else {
          throw EngineError(.empty, "\(trackPath) has no keyframes")
        }
        try track.pointee.keyframes.withUnsafeBufferPointer { keyframes throws(EngineError) in
          for keyIndex in keyframes.indices {
            try validate(
              keyframes.baseAddress.unsafelyUnwrapped + keyIndex, of: property,
              path: "\(trackPath).keyframes[\(keyIndex)]")
          }
        }
      }
    }
    for (whole, parts) in Self.overlappingProperties where animated.contains(whole) {
      if let part = parts.first(where: animated.contains) {
        throw EngineError(
          .duplicate,
          "\(path) animates both \(whole.rawValue) and \(part.rawValue), which set the same values")
      }
    }
  }

  /// Checks a keyframe of a track of `property`; `keyPath` (built only for an error) names it.
  private static func validate(
    _ keyframe: UnsafePointer<Keyframe>, of property: LayerProperty,
    path keyPath: @autoclosure () -> String
  ) throws(EngineError) {
    let start = keyframe.pointee.relativeStart
    let duration = keyframe.pointee.relativeDuration
    if !(0...1).contains(start) {
      try EngineError.require(start, in: 0...1, "\(keyPath()).start")
    }
    if !(0...1).contains(duration) {
      try EngineError.require(duration, in: 0...1, "\(keyPath()).duration")
    }
    guard keyframe.pointee.relativeEnd <= 1 + 1e-9 else {
      throw EngineError(
        .outOfRange,
        "\(keyPath()) ends at \(keyframe.pointee.relativeEnd), after the end of the timeline (1)")
    }
    let kind = keyframe.pointee.value.kind
    guard kind == property.kind else {
      throw EngineError(
        .invalidValue,
        "\(keyPath()).value must be a \(property.kind.rawValue) for \(property.rawValue), got a \(kind.rawValue)"
      )
    }
    // Within the bound means finite: the finite check is made only for the error.
    guard keyframe.pointee.value.isWithin(maximumValueMagnitude) else {
      guard keyframe.pointee.value.isFinite else {
        throw EngineError(.nonFinite, "\(keyPath()).value must be finite")
      }
      throw EngineError(
        .outOfRange,
        "\(keyPath()).value must be within ±\(maximumValueMagnitude), got \(keyframe.pointee.value.json.serialized)"
      )
    }
    if property.isLength, case .number(let length) = keyframe.pointee.value, length < 0 {
      throw EngineError(
        .outOfRange,
        "\(keyPath()).value must not be negative for \(property.rawValue), got \(JSONValue.format(length))"
      )
    }
    // A linear curve has nothing to check.
    if case .linear = keyframe.pointee.curve { return }
    do {
      _ = try keyframe.pointee.curve.validated()
      try keyframe.pointee.curve.requireBounded()
    } catch {
      throw EngineError(error.code, "\(keyPath()).curve: \(error.message)")
    }
  }

  /// Properties that write the same numbers as others, and so cannot be animated together.
  private static let overlappingProperties: [(LayerProperty, [LayerProperty])] = [
    (.frame, [.position, .size]), (.scale, [.scaleX, .scaleY]),
  ]
}
