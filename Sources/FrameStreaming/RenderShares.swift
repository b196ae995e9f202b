/// The frame clocks' render time shared by uid, as dbus-broker charges each user for its own
/// traffic (docs/architecture.md, "The frame clock", and docs/limits.md): one user's load is
/// bounded by its own share, so it cannot delay another user's frames.
///
/// Every wall-clock frame a frame clock renders is charged to the uid that began its session
/// (peers without credentials share one account), in seconds of rendering. While streams of
/// more than one uid are on the frame clocks, each uid earns ``coresShared`` divided by that
/// number of uids, in seconds of rendering per second, and may save at most
/// ``savedSeconds`` of it. A uid decides at each tick: with a balance above zero it renders
/// all its due streams of the tick (and may go into debt by that tick's cost); in debt, it
/// renders none of them, and its streams show a later deadline once it has paid. A uid
/// alone on the clocks is never held back. Pure bookkeeping: the time comes from the caller.
public final class RenderShares {
  /// The cores of rendering the frame clocks share out while several uids stream.
  static let coresShared = 0.5
  /// The most render time a uid can save up, in seconds.
  static let savedSeconds = 0.002

  /// The key of an account: a uid, or nil for peers without credentials.
  public typealias Owner = UInt32?

  private struct Account {
    /// Seconds of rendering the uid may still spend (negative: its debt).
    var balance = 0.0
    /// When the balance was last brought up to date.
    var updated: Double
    /// Its streams on the frame clocks.
    var streams = 0
  }

  private var accounts: [Owner: Account] = [:]
  /// The uids with streams on the frame clocks.
  private(set) var activeOwners = 0

  /// Whether render time is being shared (more than one uid streams); while not, nothing is
  /// charged or held back.
  var isSharing: Bool { activeOwners > 1 }

  /// The seconds of rendering per second each active uid earns.
  var rate: Double { Self.coresShared / Double(max(activeOwners, 1)) }

  /// A stream of `owner` went onto a frame clock at `now`.
  func streamAdded(_ owner: Owner, at now: Double) {
    // A newcomer starts with what a uid may save, so that its first tick renders at once.
    var account = accounts[owner] ?? Account(balance: Self.savedSeconds, updated: now)
    if account.streams == 0 {
      settleAll(at: now)
      activeOwners += 1
      account.updated = now
    }
    account.streams += 1
    accounts[owner] = account
  }

  /// A stream of `owner` left its frame clock at `now`; an owner with none left is forgotten
  /// (a debt too: leaving the clocks ends the sharing for it).
  func streamRemoved(_ owner: Owner, at now: Double) {
    guard var account = accounts[owner], account.streams > 0 else { return }
    account.streams -= 1
    guard account.streams == 0 else {
      accounts[owner] = account
      return
    }
    settleAll(at: now)
    accounts[owner] = nil
    activeOwners -= 1
  }

  /// Whether `owner` renders its streams of a tick that starts at `now`.
  func mayRender(_ owner: Owner, at now: Double) -> Bool {
    guard isSharing, var account = accounts[owner] else { return true }
    earn(&account, at: now)
    accounts[owner] = account
    return account.balance > 0
  }

  /// Charges `owner` for `seconds` of rendering.
  func charge(_ owner: Owner, seconds: Double) {
    guard isSharing, seconds > 0, accounts[owner] != nil else { return }
    accounts[owner]?.balance -= seconds
  }

  /// Runs `render` and charges `owner` the time it took on `clock`; while render time is not
  /// shared, only runs it (the clock is not read).
  func charging(_ owner: Owner, on clock: ServerClock, _ render: () -> Void) {
    guard isSharing else { return render() }
    let start = clock.now
    render()
    charge(owner, seconds: clock.now - start)
  }

  /// The balance of `owner`, in seconds, as of its last update (for tests and stats).
  func balance(of owner: Owner) -> Double? { accounts[owner]?.balance }

  /// Brings every balance up to `now` at the current rate, before the rate changes.
  private func settleAll(at now: Double) {
    for owner in accounts.keys {
      guard var account = accounts[owner] else { continue }
      earn(&account, at: now)
      accounts[owner] = account
    }
  }

  private func earn(_ account: inout Account, at now: Double) {
    let elapsed = max(now - account.updated, 0)
    account.updated = max(now, account.updated)
    if isSharing {
      account.balance = min(account.balance + elapsed * rate, Self.savedSeconds)
    } else {
      account.balance = min(account.balance, Self.savedSeconds)
    }
  }
}

@available(*, unavailable) extension RenderShares: Sendable {}
