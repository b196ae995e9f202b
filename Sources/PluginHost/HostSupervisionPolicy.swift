/// When to restart the plugin host and when to stop calling a plugin: a pure policy, driven by
/// the daemon's supervisor and tested without processes (docs/plugins.md, "Isolation").
///
/// Restarts back off: the n-th failure in a row waits `initialBackoff × 2^(n−1)`, at most
/// `maximumBackoff`; a scan that completes, or a call answered, resets the count. A fault
/// blamed on a library (the host died, hung or overflowed while that library was loading or
/// one of its animators was working) is a strike against it; a library that crashed while
/// loading is quarantined at once (loading it again would crash the host again), any other at
/// `quarantineStrikes` strikes. Quarantine lasts until ``liftQuarantine()`` (the daemon's
/// `reload`).
public struct HostSupervisionPolicy: Equatable, Sendable {
  /// The wait before the first restart after a failure, in seconds.
  public var initialBackoff: Double
  /// The longest wait between restarts, in seconds.
  public var maximumBackoff: Double
  /// Strikes that quarantine a library.
  public var quarantineStrikes: Int

  /// Failures in a row since the host last worked.
  public private(set) var consecutiveFailures = 0
  /// Strikes per library real path.
  public private(set) var strikes: [String: Int] = [:]
  /// Quarantined libraries and why, by real path.
  public private(set) var quarantined: [String: String] = [:]

  public init(initialBackoff: Double, maximumBackoff: Double, quarantineStrikes: Int) {
    self.initialBackoff = initialBackoff
    self.maximumBackoff = maximumBackoff
    self.quarantineStrikes = quarantineStrikes
  }

  /// The host worked (a scan completed or a call came back): the backoff starts over.
  public mutating func hostWorked() {
    consecutiveFailures = 0
  }

  /// Records that the host went down.
  /// - Parameters:
  ///   - library: the library blamed, if any.
  ///   - whileLoading: the library was being opened (quarantined at once).
  ///   - reason: the log's wording of the fault, kept as the quarantine reason.
  /// - Returns: the seconds to wait before starting the host again, and whether this fault
  ///   quarantined the library.
  public mutating func hostFailed(blaming library: String?, whileLoading: Bool, reason: String)
    -> (restartAfter: Double, quarantinedNow: Bool)
  {
    consecutiveFailures += 1
    var quarantinedNow = false
    if let library, quarantined[library] == nil {
      let count = (strikes[library] ?? 0) + 1
      strikes[library] = count
      if whileLoading || count >= quarantineStrikes {
        quarantined[library] = reason
        quarantinedNow = true
      }
    }
    return (backoff, quarantinedNow)
  }

  /// The wait before the next restart for the failures so far.
  public var backoff: Double {
    guard consecutiveFailures > 0 else { return 0 }
    let exponent = Double(min(consecutiveFailures - 1, 30))
    return min(initialBackoff * Double.pow2(exponent), maximumBackoff)
  }

  /// Forgets every strike and quarantine (the next scan tries every library again).
  public mutating func liftQuarantine() {
    strikes = [:]
    quarantined = [:]
  }
}

extension Double {
  fileprivate static func pow2(_ exponent: Double) -> Double {
    Double(sign: .plus, exponent: Int(exponent), significand: 1)
  }
}
