/// A knob of an animator: a number with a default that a `begin` may set, within its range,
/// with `params` (`{"params": {"dealSpread": 0.3}}`).
public struct AnimatorParameter: Equatable, Hashable, Sendable {
  public var name: String
  public var defaultValue: Double
  public var range: ClosedRange<Double>
  /// What the knob does, in a few words; nil when the file says nothing.
  public var summary: String?

  public init(name: String, defaultValue: Double, range: ClosedRange<Double>, summary: String?) {
    self.name = name
    self.defaultValue = defaultValue
    self.range = range
    self.summary = summary
  }
}
