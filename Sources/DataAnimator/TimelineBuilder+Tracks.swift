import TransitionJSON
import TransitionKit

/// The stagger of a rule's layers and the tracks of each: what a rule plays.
extension TimelineBuilder {
  // MARK: Stagger

  struct StaggerValues {
    var stagger: Double
    var distance: Double
    var farthest: Double
  }

  /// The stagger values of each of `items`, by position: nil for a layer the rule's stagger
  /// does not spread over (every layer of a rule without one).
  func stagger(_ rule: Rule, _ items: [Item]) throws(EngineError) -> [StaggerValues?] {
    guard let stagger = rule.stagger else { return Array(repeating: nil, count: items.count) }
    let among = items.indices.filter {
      matches(stagger.among, items[$0])
    }
    var measures: [Double?] = Array(repeating: nil, count: items.count)
    switch stagger.measure {
    case .index:
      for (rank, index) in among.enumerated() { measures[index] = Double(rank) }
    case .distance:
      let origin: Point
      switch stagger.origin {
      case .container:
        origin = Point(x: context.container.width / 2, y: context.container.height / 2)
      case .layer(let reference):
        guard let layer = self.reference(of: reference) else {
          throw EngineError(
            .invalidValue,
            "\(document.name).json \(rule.pointer)/stagger: the context has no \(reference.rawValue) layer"
          )
        }
        origin = layer.frame.center
      case .point(let x, let y):
        origin = Point(
          x: try evaluate(x, "\(rule.pointer)/stagger/from/0", ExpressionNames(globals)),
          y: try evaluate(y, "\(rule.pointer)/stagger/from/1", ExpressionNames(globals)))
      }
      for index in among {
        let center = items[index].layer.initial.frame.center
        let dx = center.x - origin.x
        let dy = center.y - origin.y
        measures[index] = (dx * dx + dy * dy).squareRoot()
      }
    }
    let farthest = measures.lazy.compactMap { $0 }.max() ?? 0
    return measures.map { measure in
      measure.map {
        StaggerValues(
          stagger: farthest > 0 ? min($0 / farthest, 1) : 0, distance: $0, farthest: farthest)
      }
    }
  }

  // MARK: Tracks

  func value(
    _ value: ValueExpression, property: LayerProperty, item: Item, _ names: ExpressionNames,
    _ pointer: @autoclosure () -> String
  ) throws(EngineError) -> PropertyValue {
    switch value {
    case .bool(let flag): return .bool(flag)
    case .color(let choices): return .color(resolve(choices, layer: item.contextLayer))
    case .layer(.none): return .layer(nil)
    case .layer(.reference(let reference)): return .layer(self.reference(of: reference)?.id)
    case .layer(.added(let name)): return .layer("\(document.name).\(name)")
    case .numbers(let expressions, let kind):
      /// The value of the expression at `index`, evaluated in the order the kind reads them.
      func number(_ index: Int) throws(EngineError) -> Double {
        try evaluate(
          expressions[index], expressions.count == 1 ? pointer() : "\(pointer())/\(index)", names)
      }
      switch kind {
      case .point: return .point(Point(x: try number(0), y: try number(1)))
      case .size: return .size(Size(width: try number(0), height: try number(1)))
      case .rect:
        return .rect(
          Rect(x: try number(0), y: try number(1), width: try number(2), height: try number(3)))
      case .transform:
        var numbers: [Double] = []
        numbers.reserveCapacity(expressions.count)
        for index in expressions.indices { numbers.append(try number(index)) }
        return .transform(try Transform3D(elements: numbers))
      default: return .number(try number(0))
      }
    }
  }

  func play(
    _ track: TrackRule, on layer: inout TimelineLayer, item: Item, _ names: ExpressionNames
  ) throws(EngineError) {
    // The messages' pointers capture the track's pointer alone, not a copy of the track.
    let trackPointer = track.pointer
    let initial: PropertyValue
    if let value = track.initial {
      initial = try self.value(
        value, property: track.property, item: item, names, "\(trackPointer)/from")
    } else {
      initial = layer.initial.value(of: track.property)
    }
    let mirrored = plan.mirrored && track.mirrors
    // The keyframes as written; for a mirrored track, where each ends as well.
    var keyframes: [Keyframe] = []
    keyframes.reserveCapacity(track.keyframes.count)
    var ends: [Double] = []
    for (index, keyframe) in track.keyframes.enumerated() {
      var pointer: String { "\(trackPointer)/keyframes/\(index)" }
      let start = try evaluate(keyframe.start, "\(pointer)/start", names)
      let end: Double
      let duration: Double
      if let endExpression = keyframe.end {
        end = try evaluate(endExpression, "\(pointer)/end", names)
        duration = end - start
      } else {
        duration = try evaluate(keyframe.duration ?? .number(0), "\(pointer)/duration", names)
        end = start + duration
      }
      keyframes.append(
        Keyframe(
          start: start, duration: duration,
          value: try value(
            keyframe.value, property: track.property, item: item, names, "\(pointer)/value"),
          curve: keyframe.curve))
      if mirrored { ends.append(end) }
    }
    guard mirrored else {
      layer.initial.set(track.property, to: initial)
      layer.tracks.append(PropertyTrack(track.property, mode: track.mode, keyframes: keyframes))
      return
    }
    // Mirrored in time: each keyframe runs over [1 − end, 1 − start] towards the value before
    // it, and the track starts at the last value.
    var mirroredKeyframes: [Keyframe] = []
    mirroredKeyframes.reserveCapacity(keyframes.count)
    for index in keyframes.indices.reversed() {
      let keyframe = keyframes[index]
      let window = keyframeWindow(
        keyframe.relativeStart, ends[index], keyframe.relativeDuration,
        isWindow: track.keyframes[index].end != nil)
      mirroredKeyframes.append(
        Keyframe(
          start: window.start, duration: window.duration,
          value: index == 0 ? initial : keyframes[index - 1].value, curve: keyframe.curve.mirrored))
    }
    layer.initial.set(track.property, to: keyframes.last?.value ?? initial)
    layer.tracks.append(
      PropertyTrack(track.property, mode: track.mode, keyframes: mirroredKeyframes))
  }

  /// The mirror of a keyframe's timing: a window [s, e] becomes [1 − e, 1 − s] (its duration
  /// (1 − s) − (1 − e), as `PlayDirection` computes it); `start` and `duration` become
  /// 1 − (start + duration) and the same duration.
  func keyframeWindow(_ start: Double, _ end: Double, _ duration: Double, isWindow: Bool)
    -> (start: Double, duration: Double)
  {
    isWindow ? (1 - end, (1 - start) - (1 - end)) : (1 - end, duration)
  }
}
