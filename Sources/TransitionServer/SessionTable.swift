/// The running sessions by id, in order of `begin`, and the `*` subscriptions that follow
/// every session.
final class SessionTable {
  private var sessions: [String: Session] = [:]
  private var order: [String] = []
  private var lastNumber = 0
  /// Subscriptions to `*`: they follow every session, including those that begin later.
  private(set) var everySessionSubscriptions: [Subscription] = []

  var count: Int { sessions.count }

  /// Every running session, oldest first.
  var all: [Session] { order.compactMap { sessions[$0] } }

  subscript(id: String) -> Session? { sessions[id] }

  /// A fresh server-chosen id: `s1`, `s2`, … skipping ids clients chose.
  func makeID() -> String {
    repeat { lastNumber += 1 } while sessions["s\(lastNumber)"] != nil
    return "s\(lastNumber)"
  }

  func insert(_ session: Session) {
    sessions[session.id] = session
    order.append(session.id)
  }

  func remove(_ session: Session) {
    guard sessions[session.id] === session else { return }
    sessions[session.id] = nil
    order.removeAll { $0 == session.id }
  }

  func addEverySessionSubscription(_ subscription: Subscription) {
    everySessionSubscriptions.append(subscription)
  }

  func removeEverySessionSubscription(_ subscription: Subscription) {
    everySessionSubscriptions.removeAll { $0 === subscription }
  }
}

@available(*, unavailable) extension SessionTable: Sendable {}
