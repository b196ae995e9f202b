import Testing

@testable import FrameStreaming

/// The sharing rule of the frame clocks' render time (docs/limits.md, "Render time by
/// user"): alone, a uid is never held back; beside others, it earns its share and renders a
/// tick only with a balance above zero.
@Suite struct RenderSharesTests {
  @Test func aUIDAloneIsNeverHeldBack() {
    let shares = RenderShares()
    shares.streamAdded(1_000, at: 0)
    shares.charge(1_000, seconds: 10)
    #expect(!shares.isSharing)
    #expect(shares.mayRender(1_000, at: 0.001))
  }

  @Test func aUIDInDebtWaitsUntilItsShareHasPaidIt() {
    let shares = RenderShares()
    shares.streamAdded(1_000, at: 0)
    shares.streamAdded(2_000, at: 0)
    #expect(shares.rate == RenderShares.coresShared / 2)
    #expect(shares.mayRender(1_000, at: 0))
    // 10 ms of rendering beyond what it had saved: paid back at 0.25 s a second in 40 ms.
    shares.charge(1_000, seconds: RenderShares.savedSeconds + 0.010)
    #expect(!shares.mayRender(1_000, at: 0.039))
    #expect(shares.mayRender(1_000, at: 0.041))
    // The other uid was never charged: it renders throughout.
    #expect(shares.mayRender(2_000, at: 0.039))
  }

  @Test func savingsAreCapped() {
    let shares = RenderShares()
    shares.streamAdded(1_000, at: 0)
    shares.streamAdded(2_000, at: 0)
    _ = shares.mayRender(1_000, at: 100)
    #expect(shares.balance(of: 1_000) == RenderShares.savedSeconds)
    // So a long idle spell buys one tick's worth, not a burst of many.
    shares.charge(1_000, seconds: RenderShares.savedSeconds + 0.001)
    #expect(!shares.mayRender(1_000, at: 100))
  }

  @Test func theShareIsTheCoresDividedByTheUIDsStreaming() {
    let shares = RenderShares()
    for uid: UInt32 in [1, 2, 3] { shares.streamAdded(uid, at: 0) }
    #expect(shares.rate == RenderShares.coresShared / 3)
    // A uid's second stream does not make it count twice.
    shares.streamAdded(3, at: 0)
    #expect(shares.activeOwners == 3)
    shares.streamRemoved(3, at: 0)
    #expect(shares.activeOwners == 3)
    shares.streamRemoved(3, at: 0)
    #expect(shares.activeOwners == 2)
    // Peers without credentials share one account.
    shares.streamAdded(nil, at: 0)
    shares.streamAdded(nil, at: 0)
    #expect(shares.activeOwners == 3)
  }

  @Test func theLastOtherUIDLeavingEndsTheSharing() {
    let shares = RenderShares()
    shares.streamAdded(1_000, at: 0)
    shares.streamAdded(2_000, at: 0)
    shares.charge(1_000, seconds: 1)
    #expect(!shares.mayRender(1_000, at: 0.1))
    shares.streamRemoved(2_000, at: 0.1)
    #expect(shares.mayRender(1_000, at: 0.1))
  }

  @Test func aNewcomerRendersAtOnce() {
    let shares = RenderShares()
    shares.streamAdded(1_000, at: 0)
    shares.charge(1_000, seconds: 1)
    shares.streamAdded(2_000, at: 5)
    #expect(shares.mayRender(2_000, at: 5))
  }
}
