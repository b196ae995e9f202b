/// systemd's software watchdog (`WatchdogSec=` in the unit): how often the service must send
/// `WATCHDOG=1`, read from the environment systemd sets, without libsystemd.
///
/// systemd sets `WATCHDOG_USEC` (the timeout in microseconds) and `WATCHDOG_PID` (the process
/// meant to ping). The watchdog applies to this process when `WATCHDOG_USEC` is a positive
/// integer and `WATCHDOG_PID` is unset or this process's pid; it pings at half the timeout,
/// as `sd_watchdog_enabled(3)` advises. The daemon pings from a timer on its event loop, so a
/// loop that stops turning stops the pings and systemd restarts the service.
public enum SystemdWatchdog {
  /// Seconds between pings, or nil when no watchdog applies to process `pid`.
  ///
  /// - Parameters:
  ///   - environment: the process environment (`WATCHDOG_USEC`, `WATCHDOG_PID`).
  ///   - pid: this process's pid.
  public static func pingInterval(environment: [String: String], pid: Int32) -> Double? {
    guard let text = environment["WATCHDOG_USEC"], let microseconds = UInt64(text),
      microseconds > 0
    else { return nil }
    if let owner = environment["WATCHDOG_PID"], !owner.isEmpty {
      guard let ownerPID = Int32(owner), ownerPID == pid else { return nil }
    }
    return Double(microseconds) / 2 / 1_000_000
  }
}
