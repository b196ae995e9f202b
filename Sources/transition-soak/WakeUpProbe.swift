import Foundation
import Glibc
import SoakAnalysis

/// The machine's own lateness, for comparison with the frames': the path of a frame without
/// the daemon's work. One thread sleeps to the next 60 Hz deadline (`clock_nanosleep`,
/// `TIMER_ABSTIME`) and writes it into a pipe, as the daemon's present timer writes a frame at
/// its deadline; the worker's main thread, blocked on the pipe as a subscriber on its socket,
/// records how long after the deadline it read it. Two wake-ups in a row, at the healthy
/// subscribers' priority: when the frames are as late as this, they were late because no CPU
/// was free to run the daemon and their reader, not because the daemon sent them late.
struct WakeUpProbe {
  /// The role its report names.
  static let role = "wake-up probe"
  let deadline: Double
  var report = WorkerReport(role: WakeUpProbe.role)

  init(deadline: Double, seed: UInt64) {
    self.deadline = deadline
    report.seed = seed
  }

  mutating func run() -> WorkerReport {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else {
      report.note("pipe: \(String(cString: strerror(errno)))")
      return report
    }
    let (reader, writer) = (descriptors[0], descriptors[1])
    let end = deadline
    let relay = Thread {
      let period = 1.0 / 60
      var due = Monotonic.now + period
      while due < end {
        var time = timespec(tv_sec: Int(due), tv_nsec: Int((due - due.rounded(.down)) * 1e9))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &time, nil) == EINTR {}
        var stamp = due
        _ = withUnsafeBytes(of: &stamp) { write(writer, $0.baseAddress, $0.count) }
        due += period
        let now = Monotonic.now
        if due < now { due += ((now - due) / period).rounded(.up) * period }
      }
      close(writer)
    }
    relay.start()
    var stamp = 0.0
    while withUnsafeMutableBytes(of: &stamp, { read(reader, $0.baseAddress, $0.count) })
      == MemoryLayout<Double>.size
    {
      let arrived = Monotonic.now
      report.wakeUps.record(arrived - stamp)
      if arrived - stamp > LatenessJudgement.stallFloor {
        WorkerReport.keep(LateSpan(due: stamp, arrived: arrived), in: &report.stalls)
      }
    }
    close(reader)
    return report
  }
}
