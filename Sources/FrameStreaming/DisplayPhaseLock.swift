/// What a display-paced subscription learns from its `presented` reports
/// (docs/protocol.md, "presented"): a pure policy, fed one report at a time, that keeps the
/// stream's vblanks locked to those the display really shows and its lead to how late the
/// subscriber really is.
///
/// Each report gives the vblank a frame was evaluated for and the instant it was presented.
/// The presented instant minus the nearest vblank of the timing in force is the phase error;
/// a filter (a first-order loop, gain ``gain``) follows it, and once the filtered error is
/// past ``retimeThreshold`` the timing's vblanks move by it. A frame presented half a period
/// or more after its vblank missed it: it counts as late, and the lead rises by ``leadStep``
/// (at most ``maximumLead``); after ``calmReports`` reports in a row on time the lead falls
/// back by one step, never under the lead asked for. Leads move in whole steps, so that
/// subscribers of one display keep sharing a stream.
public struct DisplayPhaseLock: Sendable {
  /// The share of each phase error the filter takes in.
  public static let gain = 0.2
  /// The filtered phase error, in seconds, past which the vblanks move.
  public static let retimeThreshold = 0.000_1
  /// How much the lead rises after a late frame, and falls after a calm run, in seconds.
  public static let leadStep = 0.001
  /// The longest lead the loop sets, in seconds.
  public static let maximumLead = DisplayTiming.leadRange.upperBound
  /// The reports in a row on time after which the lead falls back one step.
  public static let calmReports = 120

  /// The lead the subscriber asked for: the least the loop sets.
  public let requestedLead: Double
  /// The filtered phase error, in seconds: presented minus intended, less whole periods.
  public private(set) var phaseError = 0.0
  /// The largest phase error reported, in seconds, by magnitude.
  public private(set) var maximumPhaseError = 0.0
  /// The phase error of the last report, in seconds.
  public private(set) var lastPhaseError = 0.0
  /// Reports taken.
  public private(set) var reports = 0
  /// Frames presented at a later vblank than the one they were evaluated for.
  public private(set) var lateFrames = 0
  /// Reports in a row on time.
  private var calm = 0

  public init(requestedLead: Double) {
    self.requestedLead = requestedLead
  }

  /// Takes the report of a frame evaluated for `vblank` and presented at `presented`, on
  /// `timing`; returns the timing to pace by from now on (the same when nothing moves).
  public mutating func report(vblank: Double, presented: Double, timing: DisplayTiming)
    -> DisplayTiming
  {
    reports += 1
    // Late by whole periods against the vblank the frame was evaluated for; off in phase
    // against the timing paced by now (a frame sent before the last move reports the same
    // error as one sent after it).
    let periods = ((presented - vblank) / timing.period).rounded()
    let error = presented - timing.vblank(atOrAfter: presented - timing.period / 2)
    lastPhaseError = error
    if abs(error) > abs(maximumPhaseError) { maximumPhaseError = error }
    phaseError += (error - phaseError) * Self.gain
    var lead = timing.lead
    if periods >= 1 {
      lateFrames += 1
      calm = 0
      lead = min(lead + Self.leadStep, Self.maximumLead)
    } else {
      calm += 1
      if calm >= Self.calmReports, lead > requestedLead {
        calm = 0
        lead = max(lead - Self.leadStep, requestedLead)
      }
    }
    var next = lead == timing.lead ? timing : timing.leading(by: lead)
    if abs(phaseError) > Self.retimeThreshold {
      next = next.shifted(by: phaseError)
      phaseError = 0
    }
    return next
  }
}
