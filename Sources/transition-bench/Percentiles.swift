import Foundation

/// Order statistics of samples.
struct Percentiles {
  private let sorted: [Double]

  init(_ samples: [Double]) {
    sorted = samples.sorted()
  }

  var count: Int { sorted.count }
  /// The samples, in increasing order.
  var samples: [Double] { sorted }

  /// The `fraction` quantile (nearest rank); 0 without samples.
  func value(_ fraction: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
  }

  var median: Double { value(0.5) }
  var maximum: Double { sorted.last ?? 0 }
}

/// Runs `body(0)` … `body(count - 1)` each on its own thread, all at once (unlike
/// `DispatchQueue.concurrentPerform`, which runs no more at once than there are cores), and
/// returns when every one has returned.
func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      body(index)
      group.leave()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  group.wait()
}
