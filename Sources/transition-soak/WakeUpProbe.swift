import Glibc

/// The machine's own lateness, for comparison with the frames': a process at the healthy
/// subscribers' priority that sleeps to the next 60 Hz deadline (`clock_nanosleep`,
/// `TIMER_ABSTIME`) again and again and records how long after it it woke. When this is as
/// late as the frames, the frames were late because no CPU was free to run their reader, not
/// because the daemon sent them late.
struct WakeUpProbe {
  let deadline: Double
  var report = WorkerReport(role: "wake-up probe")

  init(deadline: Double, seed: UInt64) {
    self.deadline = deadline
    report.seed = seed
  }

  mutating func run() -> WorkerReport {
    let period = 1.0 / 60
    var due = Monotonic.now + period
    while due < deadline {
      var time = timespec(tv_sec: Int(due), tv_nsec: Int((due - due.rounded(.down)) * 1e9))
      while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
      let now = Monotonic.now
      report.wakeUps.record(now - due)
      due += period
      if due < now { due += ((now - due) / period).rounded(.up) * period }
    }
    return report
  }
}
