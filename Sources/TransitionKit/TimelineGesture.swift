import TransitionJSON

/// How a timeline follows a finger (docs/plugins.md, "gesture"): which layers the finger holds
/// and how the drag sets progress.
///
/// While a session is driven by touch, progress is
/// `clamp(grabProgress + direction · drag / range, 0, 1)`, where `drag` is the finger's
/// movement since the grab along `axis` (its length for ``Axis/distance``). The held layers get
/// an extra translation that keeps the grabbed point under the finger (``GestureFollower``).
public struct TimelineGesture: Equatable, Sendable {
  /// What part of the drag moves progress.
  public enum Axis: String, Sendable, CaseIterable {
    /// The horizontal movement.
    case x
    /// The vertical movement (down is positive, as container y is).
    case y
    /// The length of the movement, in any direction.
    case distance
  }

  /// The ids of the layers the finger holds, in timeline order of appearance in this list;
  /// the first one is where the grabbed point is taken.
  public var hold: [String]
  public var axis: Axis
  /// The drag, in points, that takes progress from 0 to 1; positive and finite.
  public var range: Double
  /// +1 when a drag towards positive coordinates raises progress, −1 for the other way.
  public var direction: Double
  /// Whether the held layers follow the finger along the gesture's axis alone (a back swipe
  /// moves its screen sideways only, whatever the finger does up and down) or everywhere.
  /// Only an `x` or `y` gesture follows its axis; `distance` always follows the point.
  public var followsAxisOnly: Bool

  public init(
    hold: [String], axis: Axis, range: Double, direction: Double = 1,
    followsAxisOnly: Bool = false
  ) {
    self.hold = hold
    self.axis = axis
    self.range = range
    self.direction = direction
    self.followsAxisOnly = followsAxisOnly
  }

  /// `offset` with the component across the axis dropped when the layers follow the axis
  /// alone.
  public func followed(_ offset: Point) -> Point {
    guard followsAxisOnly else { return offset }
    switch axis {
    case .x: return Point(x: offset.x, y: 0)
    case .y: return Point(x: 0, y: offset.y)
    case .distance: return offset
    }
  }

  /// The largest `range` accepted, in points (the context's coordinate bound).
  public static let maximumRange = ContextBounds.maximumCoordinate

  /// Checks the gesture against the timeline's layer ids.
  /// - Throws: `EngineError` naming the member: a range that is not positive and finite or
  ///   over `maximumRange`, a direction other than 1 or −1, a held id the timeline lacks or
  ///   repeated.
  func validate(layerIDs: Set<String>, path: String) throws(EngineError) {
    try EngineError.requireFinite(range, "\(path).range")
    guard range > 0, range <= Self.maximumRange else {
      throw EngineError(
        .outOfRange,
        "\(path).range must be positive and at most \(JSONValue.format(Self.maximumRange)) points, got \(JSONValue.format(range))"
      )
    }
    guard direction == 1 || direction == -1 else {
      throw EngineError(
        .invalidValue, "\(path).direction must be 1 or -1, got \(JSONValue.format(direction))")
    }
    var seen = Set<String>()
    for (index, id) in hold.enumerated() {
      guard layerIDs.contains(id) else {
        throw EngineError(
          .invalidValue, "\(path).hold[\(index)] \"\(id)\" is not a layer of the timeline")
      }
      guard seen.insert(id).inserted else {
        throw EngineError(.duplicate, "\(path).hold[\(index)] \"\(id)\" is held twice")
      }
    }
  }

  /// Progress for a finger at `touch` that grabbed at `grab` when progress was
  /// `grabProgress`: in [0, 1]; NaN-free for finite input.
  public func progress(touch: Point, grab: Point, grabProgress: Double) -> Double {
    let drag = along(dx: touch.x - grab.x, dy: touch.y - grab.y)
    let value = grabProgress + direction * drag / range
    return value > 0 ? min(value, 1) : 0
  }

  /// The rate of change of progress, per second, of a finger moving at `velocity` (points per
  /// second) that is `offset` away from the grab: the velocity along the axis (along the drag
  /// for ``Axis/distance``) over the range.
  public func progressVelocity(touchVelocity velocity: Point, offset: Point) -> Double {
    switch axis {
    case .x: return direction * velocity.x / range
    case .y: return direction * velocity.y / range
    case .distance:
      let length = (offset.x * offset.x + offset.y * offset.y).squareRoot()
      guard length > 0 else { return 0 }
      return direction * (velocity.x * offset.x + velocity.y * offset.y) / length / range
    }
  }

  /// The drag `(dx, dy)` measured along the axis.
  private func along(dx: Double, dy: Double) -> Double {
    switch axis {
    case .x: dx
    case .y: dy
    case .distance: (dx * dx + dy * dy).squareRoot()
    }
  }
}

extension TimelineGesture {
  /// Decodes `{"hold": [ids], "axis": "x"|"y"|"distance", "range": points,
  /// "direction": 1|-1, "follow": "point"|"axis"}` (`direction` defaults to 1, `follow` to
  /// `point`); the ids are checked by the timeline.
  public init(json field: JSONField) throws(EngineError) {
    try field.allowOnly(["hold", "axis", "range", "direction", "follow"])
    var hold: [String] = []
    for element in try field.required("hold").elements() {
      hold.append(try element.string())
    }
    let axisField = try field.required("axis")
    let axisName = try axisField.string()
    guard let axis = Axis(rawValue: axisName) else {
      throw EngineError(
        .invalidValue, "\(axisField.path) must be x, y or distance, got \"\(axisName)\"")
    }
    var followsAxisOnly = false
    if let followField = try field.optional("follow") {
      switch try followField.string() {
      case "point": followsAxisOnly = false
      case "axis": followsAxisOnly = true
      case let other:
        throw EngineError(
          .invalidValue, "\(followField.path) must be point or axis, got \"\(other)\"")
      }
    }
    self.init(
      hold: hold, axis: axis, range: try field.required("range").number(),
      direction: try field.optional("direction")?.number() ?? 1, followsAxisOnly: followsAxisOnly)
  }

  /// The gesture as JSON, in the form `init(json:)` reads (`follow` only when it is `axis`).
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "hold": .array(hold.map(JSONValue.string)), "axis": .string(axis.rawValue),
      "range": .number(range), "direction": .number(direction),
    ]
    if followsAxisOnly { members["follow"] = .string("axis") }
    return .object(members)
  }
}
