/// The timing of a subscriber's display (docs/protocol.md, "Display pacing"): its refresh
/// period, the phase of its vblanks on the daemon's monotonic clock, and the lead, how long
/// before each vblank its frame is sent.
///
/// A display-paced stream's frame k is evaluated for vblank `anchor + k × period` (its `t` is
/// that vblank minus the session's start) and sent `lead` before it. Equal timings pace one
/// shared stream: the vblank is kept as ``anchor``, the vblank in [0, period) of the same
/// grid, rounded to the nanosecond, so that two subscribers naming different vblanks of one
/// display agree.
public struct DisplayTiming: Hashable, Sendable {
  /// The shortest and longest refresh period, in seconds (500 Hz to 1 Hz).
  public static let periodRange: ClosedRange<Double> = 0.002...1
  /// The shortest and longest lead, in seconds.
  public static let leadRange: ClosedRange<Double> = 0...0.1
  /// How far from now a vblank instant may lie, in seconds, either way.
  public static let vblankReach = 3_600.0

  /// The refresh period, in seconds.
  public let period: Double
  /// The vblank of the grid in [0, period), on the daemon's clock, to the nanosecond.
  public let anchor: Double
  /// How long before each vblank its frame is sent, in seconds.
  public let lead: Double

  /// The timing of vblanks `vblank + k × period`, frames sent `lead` before each. The period
  /// is within ``periodRange`` and finite values are given (the request reader checks).
  public init(period: Double, vblank: Double, lead: Double) {
    precondition(Self.periodRange.contains(period), "a display period out of its range")
    self.period = period
    let phase = vblank - (vblank / period).rounded(.down) * period
    var anchor = (phase * 1e9).rounded() / 1e9
    if anchor >= period { anchor -= period }
    self.anchor = max(anchor, 0)
    self.lead = lead
  }

  /// The time of vblank `index` of the grid.
  public func vblank(_ index: Int) -> Double {
    anchor + Double(index) * period
  }

  /// The index of the first vblank at or after `time`.
  public func index(atOrAfter time: Double) -> Int {
    let periods = ((time - anchor) / period).rounded(.up)
    var index = Int(max(min(periods, 1e15), -1e15))
    // Rounding may leave the computed vblank on the wrong side of `time`.
    while vblank(index) < time { index += 1 }
    while vblank(index - 1) >= time { index -= 1 }
    return index
  }

  /// The first vblank at or after `time`.
  public func vblank(atOrAfter time: Double) -> Double {
    vblank(index(atOrAfter: time))
  }

  /// The same display with another lead.
  public func leading(by lead: Double) -> DisplayTiming {
    DisplayTiming(period: period, vblank: anchor, lead: lead)
  }

  /// The same display with its vblanks moved by `offset` seconds.
  public func shifted(by offset: Double) -> DisplayTiming {
    DisplayTiming(period: period, vblank: anchor + offset, lead: lead)
  }
}
