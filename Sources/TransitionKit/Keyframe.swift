/// One keyframe of a property track, as `UIView.addKeyframe(withRelativeStartTime:relativeDuration:)`.
///
/// `relativeStart` and `relativeDuration` are fractions of the timeline's whole duration;
/// `start + duration` must not pass 1. During the keyframe the property moves from the value it
/// had when the keyframe started to `value`, eased by `curve`; after it ends it holds `value`.
public struct Keyframe: Equatable, Sendable {
  public var relativeStart: Double
  public var relativeDuration: Double
  public var value: PropertyValue
  public var curve: TimingCurve

  public init(
    start relativeStart: Double, duration relativeDuration: Double, value: PropertyValue,
    curve: TimingCurve = .linear
  ) {
    self.relativeStart = relativeStart
    self.relativeDuration = relativeDuration
    self.value = value
    self.curve = curve
  }

  /// The relative time at which the keyframe reaches its value.
  public var relativeEnd: Double { relativeStart + relativeDuration }
}

/// How a track moves between its keyframes (`UIView.KeyframeAnimationOptions` calculation modes).
public enum CalculationMode: String, CaseIterable, Sendable {
  /// Each keyframe blends from the property's value at its start to its target, eased by its curve.
  case linear
  /// Each keyframe's value appears at the keyframe's start, without blending.
  case discrete
  /// The values are visited at constant speed over the span from the first keyframe's start to
  /// the last one's end; keyframe times and curves are ignored.
  case paced
  /// A Catmull-Rom spline through the initial value (at the first keyframe's start) and each
  /// keyframe's value (at its end); curves are ignored.
  case cubic
}

/// The keyframes of one property of one layer.
public struct PropertyTrack: Equatable, Sendable {
  public var property: LayerProperty
  public var mode: CalculationMode
  public var keyframes: [Keyframe]

  public init(_ property: LayerProperty, mode: CalculationMode = .linear, keyframes: [Keyframe]) {
    self.property = property
    self.mode = mode
    self.keyframes = keyframes
  }
}
