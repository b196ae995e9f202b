/// One reading of a daemon's metric during a soak: when, and the value (bytes of resident
/// memory, open descriptors, threads, scheduled timers, active sessions).
public struct MetricSample: Equatable, Sendable {
  /// Seconds since the soak began.
  public var time: Double
  public var value: Double

  public init(time: Double, value: Double) {
    self.time = time
    self.value = value
  }
}
