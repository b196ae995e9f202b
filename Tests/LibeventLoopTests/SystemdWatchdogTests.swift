import LibeventLoop
import Testing
import UnixDaemon

/// When the watchdog applies and how often it is pinged.
@Suite struct SystemdWatchdogTests {
  @Test func pingsAtHalfTheTimeout() {
    #expect(SystemdWatchdog.pingInterval(environment: ["WATCHDOG_USEC": "30000000"], pid: 5) == 15)
    #expect(
      SystemdWatchdog.pingInterval(
        environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "5"], pid: 5) == 0.1)
    #expect(
      SystemdWatchdog.pingInterval(
        environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": ""], pid: 5) == 0.1)
  }

  @Test func doesNotApplyToAnotherProcessOrWithoutAValidTimeout() {
    #expect(SystemdWatchdog.pingInterval(environment: [:], pid: 5) == nil)
    for value in ["", "0", "-1", "abc", "1.5", "18446744073709551616"] {
      #expect(SystemdWatchdog.pingInterval(environment: ["WATCHDOG_USEC": value], pid: 5) == nil)
    }
    #expect(
      SystemdWatchdog.pingInterval(
        environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "6"], pid: 5) == nil)
    #expect(
      SystemdWatchdog.pingInterval(
        environment: ["WATCHDOG_USEC": "200000", "WATCHDOG_PID": "x"], pid: 5) == nil)
  }
}
