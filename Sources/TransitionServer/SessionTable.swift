/// The running sessions by id, in order of `begin`, and the `*` subscriptions that follow
/// every session.
final class SessionTable {
  /// Each session with the number of its `begin` among all the table has held.
  private var sessions: [String: (begun: Int, session: Session)] = [:]
  private var begins = 0
  private var lastNumber = 0
  /// Subscriptions to `*`: they follow every session, including those that begin later.
  private(set) var everySessionSubscriptions: [Subscription] = []

  var count: Int { sessions.count }

  /// Every running session, oldest first.
  var all: [Session] { sessions.values.sorted { $0.begun < $1.begun }.map(\.session) }

  subscript(id: String) -> Session? { sessions[id]?.session }

  /// A fresh server-chosen id: `s1`, `s2`, … skipping ids clients chose.
  func makeID() -> String {
    repeat { lastNumber += 1 } while sessions["s\(lastNumber)"] != nil
    return "s\(lastNumber)"
  }

  func insert(_ session: Session) {
    begins += 1
    sessions[session.id] = (begins, session)
  }

  func remove(_ session: Session) {
    guard sessions[session.id]?.session === session else { return }
    sessions[session.id] = nil
  }

  func addEverySessionSubscription(_ subscription: Subscription) {
    everySessionSubscriptions.append(subscription)
  }

  func removeEverySessionSubscription(_ subscription: Subscription) {
    everySessionSubscriptions.removeAll { $0 === subscription }
  }
}

@available(*, unavailable) extension SessionTable: Sendable {}
