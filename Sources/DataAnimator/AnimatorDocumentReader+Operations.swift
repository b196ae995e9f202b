import TransitionJSON
import TransitionKit

/// The `operations` section: each operation's plan, duration and curve.
extension AnimatorDocumentReader {
  mutating func plans(_ value: JSONValue, _ pointer: String)
    -> [TransitionOperation: OperationPlan]
  {
    let names = Set(TransitionOperation.allCases.map(\.rawValue))
    guard let members = object(value, pointer, allowed: names) else { return [:] }
    guard !members.isEmpty else {
      report(pointer, "must name at least one operation")
      return [:]
    }
    var plans: [TransitionOperation: OperationPlan] = [:]
    var mirrors: [(TransitionOperation, String, [String: JSONValue])] = []
    for operation in TransitionOperation.allCases {
      guard let entry = members[operation.rawValue] else { continue }
      let entryPointer = Self.child(pointer, operation.rawValue)
      guard
        let fields = object(
          entry, entryPointer, allowed: Self.operationKeys)
      else { continue }
      if fields["mirror"] != nil || fields["like"] != nil {
        mirrors.append((operation, entryPointer, fields))
        continue
      }
      guard let rulesValue = fields["rules"] else {
        report(entryPointer, "needs \"rules\", or \"mirror\" or \"like\" naming another operation")
        continue
      }
      guard let durationValue = fields["duration"] else {
        report(entryPointer, "needs \"duration\" (seconds)")
        continue
      }
      let duration = self.duration(durationValue, Self.child(entryPointer, "duration"))
      let curve =
        fields["curve"].map { self.curve($0, Self.child(entryPointer, "curve")) } ?? .linear
      let rules = self.rules(rulesValue, Self.child(entryPointer, "rules"))
      let gestures = fields["gesture"].map {
        self.gestures($0, Self.child(entryPointer, "gesture"))
      }
      if let duration {
        plans[operation] = OperationPlan(
          duration: duration, curve: curve ?? .linear, rules: rules, mirrored: false,
          gestures: gestures ?? [])
      }
    }
    for (operation, entryPointer, fields) in mirrors {
      if fields["rules"] != nil {
        report(Self.child(entryPointer, "rules"), "an operation that plays another has no rules")
      }
      let mirrored = fields["mirror"] != nil
      let key = mirrored ? "mirror" : "like"
      if fields["mirror"] != nil, fields["like"] != nil {
        report(entryPointer, "\"mirror\" and \"like\" cannot both be given")
        continue
      }
      guard let sourceName = string(fields[key]!, Self.child(entryPointer, key)) else { continue }
      guard let source = TransitionOperation(rawValue: sourceName).flatMap({ plans[$0] }) else {
        report(
          Self.child(entryPointer, key),
          "\"\(sourceName)\" is not an operation of this file with its own rules")
        continue
      }
      var plan = source
      plan.mirrored = mirrored
      plan.gestures =
        fields["gesture"].map { self.gestures($0, Self.child(entryPointer, "gesture")) } ?? []
      if let durationValue = fields["duration"] {
        guard let duration = duration(durationValue, Self.child(entryPointer, "duration")) else {
          continue
        }
        plan.duration = duration
      }
      if let curveValue = fields["curve"] {
        guard let curve = curve(curveValue, Self.child(entryPointer, "curve")) else { continue }
        plan.curve = curve
      }
      plans[operation] = plan
    }
    return plans
  }

  /// The top-level `reduced`: the form every operation plays with reduced motion, its rules
  /// as written (`from` and `to` are the context's, whatever the operation).
  mutating func reducedPlan(_ value: JSONValue, _ pointer: String) -> OperationPlan? {
    guard
      let fields = object(value, pointer, allowed: ["description", "duration", "curve", "rules"])
    else {
      return nil
    }
    guard let rulesValue = fields["rules"], let durationValue = fields["duration"] else {
      report(pointer, "needs \"duration\" (seconds) and \"rules\"")
      return nil
    }
    let duration = self.duration(durationValue, Self.child(pointer, "duration"))
    let curve = fields["curve"].map { self.curve($0, Self.child(pointer, "curve")) } ?? .linear
    let rules = self.rules(rulesValue, Self.child(pointer, "rules"))
    guard let duration else { return nil }
    return OperationPlan(duration: duration, curve: curve ?? .linear, rules: rules, mirrored: false)
  }

  mutating func duration(_ value: JSONValue, _ pointer: String) -> Double? {
    guard let seconds = number(value, pointer) else { return nil }
    guard seconds > 0, seconds <= Timeline.maximumDuration else {
      report(pointer, "must be in (0, \(JSONValue.format(Timeline.maximumDuration))] seconds")
      return nil
    }
    return seconds
  }

  /// The file's `handover`: seconds in (0, `Timeline.maximumHandover`].
  mutating func handover(_ value: JSONValue, _ pointer: String) -> Double? {
    guard let seconds = number(value, pointer) else { return nil }
    guard Timeline.isValidHandover(seconds) else {
      report(
        pointer,
        "must be in (0, \(JSONValue.format(Timeline.maximumHandover))] seconds, got "
          + JSONValue.format(seconds))
      return nil
    }
    return seconds
  }

  mutating func curve(_ value: JSONValue, _ pointer: String) -> TimingCurve? {
    do {
      return try TimingCurve(json: JSONField(value, path: "")).validated()
    } catch {
      let message = error.message
      report(pointer, message.hasPrefix(": ") ? String(message.dropFirst(2)) : message)
      return nil
    }
  }
}
