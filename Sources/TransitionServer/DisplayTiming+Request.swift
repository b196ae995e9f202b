import FrameStreaming
import TransitionJSON
import TransitionKit
import TransitionWire

extension DisplayTiming {
  /// Checks that `instant`, the request's member `name`, lies on the daemon's clock within
  /// ``vblankReach`` of monotonic `now` (a vblank, a presented time, a pulled frame's `at`).
  ///
  /// - Throws: `bad_request` naming the member, now and the instant given.
  static func checkReach(of instant: Double, named name: String, now: Double) throws(WireError) {
    guard abs(instant - now) <= vblankReach else {
      throw WireError(
        .badRequest,
        "\(name) must be an instant on the daemon's clock within "
          + "\(JSONValue.format(vblankReach)) s of now (now is \(JSONValue.format(now)); "
          + "op clock tells it), got \(JSONValue.format(instant))")
    }
  }

  /// Reads a display's timing from `field`'s members `period`, `vblank` and `lead`
  /// (`subscribe`'s `display` object, or the `display` op's own members), checked against
  /// monotonic `now`; `lead` defaults to `defaultLead` (the config's `pacingLead`).
  ///
  /// - Throws: `bad_request` naming the member for one missing or not a number, a period
  ///   outside [1/500, 1] s, a vblank more than ``vblankReach`` from now, or a lead outside
  ///   ``leadRange``.
  init(reading field: JSONField, now: Double, defaultLead: Double) throws(WireError) {
    let prefix = field.path.isEmpty ? "" : "\(field.path)."
    let period: Double
    let vblank: Double
    let lead: Double
    do {
      period = try field.required("period").number()
      vblank = try field.required("vblank").number()
      lead = try field.optional("lead")?.number() ?? defaultLead
    } catch {
      throw WireError(.badRequest, error.message)
    }
    try self.init(
      checking: period, vblank: vblank, lead: lead, now: now, prefix: prefix)
  }

  /// A timing of `period`, `vblank` and `lead` seconds, checked against monotonic `now`;
  /// error messages name each member after `prefix` (`display.`, or nothing).
  ///
  /// - Throws: `bad_request` as ``init(reading:now:defaultLead:)``.
  init(checking period: Double, vblank: Double, lead: Double, now: Double, prefix: String)
    throws(WireError)
  {
    guard period.isFinite, vblank.isFinite, lead.isFinite else {
      throw WireError(.badRequest, "\(prefix)period, vblank and lead must be finite numbers")
    }
    guard Self.periodRange.contains(period) else {
      throw WireError(
        .badRequest,
        "\(prefix)period must be in [0.002, 1] seconds (500 Hz to 1 Hz), got "
          + JSONValue.format(period))
    }
    try Self.checkReach(of: vblank, named: "\(prefix)vblank", now: now)
    guard Self.leadRange.contains(lead) else {
      throw WireError(
        .badRequest, "\(prefix)lead must be in [0, 0.1] seconds, got \(JSONValue.format(lead))")
    }
    self.init(period: period, vblank: vblank, lead: lead)
  }

  /// The timing as a reply carries it: `period`, `vblank` (the grid's vblank in
  /// [0, period)) and `lead`.
  var json: JSONValue {
    .object(["period": .number(period), "vblank": .number(anchor), "lead": .number(lead)])
  }
}
