/// How a session that interrupts another takes over its layers (docs/animators.md,
/// "Interruption"): the new timeline plays as it is, and each layer that both sessions show
/// carries a decaying offset, the difference between the old session's presented state and
/// the new timeline's at the handover instant, in value and in velocity. The offset is shaped
/// by a cubic Hermite curve that goes from that difference to zero, with zero slope, over
/// ``duration`` seconds, so position and velocity stay continuous across the handover and the
/// new timeline's own motion is reached smoothly. Where the new timeline drives a property with
/// a spring, that property's offset moves as the spring's own free motion instead
/// (``HandoverSpring``): the spring starts from the presented value with the presented
/// velocity, as its own initial velocity. Animators and plugins need no change.
///
/// A layer is blended in its ``HandoverCoordinates``: its box, anchor, opacity and colour, and
/// its transform decomposed (translation, scale, skew, perspective, rotation) rather than
/// entry by entry, so a perspective transform's corners move smoothly.
public struct Handover: Sendable, Equatable {
  /// The default time the offset takes to vanish, in seconds.
  public static let defaultDuration = 0.3
  /// The step of the finite differences that measure velocities, in seconds: short, since an
  /// eased start (`easeOut`) changes its velocity fast in its first milliseconds.
  public static let velocityStep = 1e-6
  /// The progress the new timeline is taken over at, and never shown below: just after its
  /// start, since a timeline's state at exactly 0 may differ from the motion that follows
  /// (a layer that appears, a perspective set once it moves).
  public static let startProgress = 1e-6

  /// One layer's offset: the new timeline's layer at `index`.
  struct LayerOffset: Equatable {
    var index: Int
    /// The new layer's coordinates at the handover, whose transform layout and rotation sign
    /// every later frame follows.
    var reference: HandoverCoordinates
    /// Old minus new, at the handover instant.
    var value: [Double]
    /// Old velocity minus new velocity, per second.
    var velocity: [Double]
    /// Per slot of `reference`, the spring whose free motion the slot's offset follows; nil
    /// for the Hermite blend. Empty when every slot is blended.
    var springs: [HandoverSpring?]
  }

  /// Seconds the Hermite blend takes to bring an offset to zero.
  public let duration: Double
  /// Seconds from the new session's start until every offset is zero: ``duration``, or the
  /// end of the longest spring key that carries an offset.
  public let length: Double
  /// The fields a frame of the new session may change on top of its timeline's own.
  public let fields: LayerFields
  let offsets: [LayerOffset]

  /// The handover from the old session's presented layers to the new timeline's.
  ///
  /// - Parameters:
  ///   - old: The old session's frames at the instant and one and two ``velocityStep``s
  ///     before it.
  ///   - new: The new timeline's frames at its start (``startProgress``) and one and two
  ///     steps after it.
  ///   - duration: Seconds until the Hermite blend's offset is zero.
  ///   - timeline: The new timeline, whose layers are `new`'s in order, to find the
  ///     properties it drives with a spring from its start (``HandoverSpring``); nil to blend
  ///     every property.
  ///   - sessionDuration: Seconds the new session plays `timeline` over; its own duration
  ///     when nil.
  ///
  /// Layers are matched by id; a layer the old session hid is not matched. Velocities are
  /// one-sided differences of the second order, exact for motion of constant acceleration.
  /// A slot that several properties move (`position` and `size` both move the box) follows
  /// a spring only when every animated property that moves it has the same one.
  public init(
    old: [Frame], new: [Frame], duration: Double = Handover.defaultDuration,
    timeline: Timeline? = nil, playedOver sessionDuration: Double? = nil
  ) {
    precondition(duration > 0, "a handover takes a positive time")
    precondition(old.count == 3 && new.count == 3, "three frames on each side")
    precondition(
      Set(old.map(\.layers.count)).count == 1 && Set(new.map(\.layers.count)).count == 1,
      "frames of one timeline on each side")
    self.duration = duration
    var oldIndex: [String: Int] = [:]
    for (index, layer) in old[0].layers.enumerated() { oldIndex[layer.id] = index }
    var offsets: [LayerOffset] = []
    var fields = LayerFields()
    let step = Handover.velocityStep
    for (index, layer) in new[0].layers.enumerated() {
      guard let oldAt = oldIndex[layer.id], !old[0].layers[oldAt].hidden else { continue }
      let reference = HandoverCoordinates(layer, decomposing: old[0].layers[oldAt].transform)
      let oldValues = old.map { reference.values(of: $0.layers[oldAt]) }
      let newValues = new.map { reference.values(of: $0.layers[index]) }
      guard case (let o0?, let o1?, let o2?) = (oldValues[0], oldValues[1], oldValues[2]),
        case (let n0?, let n1?, let n2?) = (newValues[0], newValues[1], newValues[2])
      else { continue }
      var value: [Double] = []
      var velocity: [Double] = []
      for slot in n0.indices {
        value.append(o0[slot] - n0[slot])
        let oldVelocity = (3 * o0[slot] - 4 * o1[slot] + o2[slot]) / (2 * step)
        let newVelocity = (-3 * n0[slot] + 4 * n1[slot] - n2[slot]) / (2 * step)
        velocity.append(oldVelocity - newVelocity)
      }
      guard value.contains(where: { $0 != 0 }) || velocity.contains(where: { $0 != 0 }) else {
        continue
      }
      var springs: [HandoverSpring?] = []
      if let timeline, index < timeline.layers.count {
        assert(timeline.layers[index].id == layer.id, "a timeline's layers are its frames'")
        springs = Self.springs(
          of: timeline.layers[index], in: reference, slotCount: value.count,
          curve: timeline.curve, duration: sessionDuration ?? timeline.duration)
      }
      offsets.append(
        LayerOffset(
          index: index, reference: reference, value: value, velocity: velocity,
          springs: springs))
      fields.formUnion(reference.fields)
    }
    self.offsets = offsets
    self.fields = fields
    length = offsets.lazy.flatMap(\.springs).compactMap { $0?.end }.reduce(duration, max)
  }

  /// Per slot of `reference`, the spring that drives it in `layer` (see ``LayerOffset``);
  /// empty when none does.
  private static func springs(
    of layer: TimelineLayer, in reference: HandoverCoordinates, slotCount: Int,
    curve: TimingCurve, duration: Double
  ) -> [HandoverSpring?] {
    var springs = [HandoverSpring?](repeating: nil, count: slotCount)
    var blended = [Bool](repeating: false, count: slotCount)
    for track in layer.tracks {
      let spring = HandoverSpring(driving: track, curve: curve, duration: duration)
      for slot in reference.slots(of: track.property) where !blended[slot] {
        if let spring, springs[slot] == nil || springs[slot] == spring {
          springs[slot] = spring
        } else {
          blended[slot] = true
          springs[slot] = nil
        }
      }
    }
    return springs.contains { $0 != nil } ? springs : []
  }

  /// Whether no layer carries an offset.
  public var isEmpty: Bool { offsets.isEmpty }

  /// Per layer of a timeline with `layerCount` layers, the fields the offset changes.
  public func changedFields(layerCount: Int) -> [LayerFields] {
    var changed = [LayerFields](repeating: [], count: layerCount)
    for offset in offsets where offset.index < layerCount {
      changed[offset.index].formUnion(offset.reference.fields)
    }
    return changed
  }

  /// The two Hermite weights at session time `t`: of the value difference and of the
  /// velocity difference; both zero from ``duration`` on.
  func weights(at t: Double) -> (value: Double, velocity: Double) {
    guard t < duration else { return (0, 0) }
    let s = max(t, 0) / duration
    let s2 = s * s
    let s3 = s2 * s
    return (2 * s3 - 3 * s2 + 1, (s3 - 2 * s2 + s) * duration)
  }

  /// Adds the offset at session time `t` to `frame`, a frame of the new timeline.
  public func apply(to frame: inout Frame, at t: Double) {
    guard t < length else { return }
    let blend = weights(at: t)
    for offset in offsets where offset.index < frame.layers.count {
      guard var values = offset.reference.values(of: frame.layers[offset.index]) else { continue }
      for slot in values.indices {
        let (valueWeight, velocityWeight) =
          offset.springs.isEmpty ? blend : offset.springs[slot]?.weights(at: t) ?? blend
        values[slot] += offset.value[slot] * valueWeight + offset.velocity[slot] * velocityWeight
      }
      offset.reference.write(values, into: &frame.layers[offset.index])
    }
  }
}
