import Testing

@testable import FrameStreaming

/// How far ahead of its deadline a frame clock renders (``RenderLead``), alone.
@Suite struct RenderLeadTests {
  @Test func theLeadRisesAtOnceAndDecaysSlowly() {
    var lead = RenderLead(period: 1.0 / 60, timerSlack: 0.001)
    #expect(lead.seconds == 0.001)
    lead.record(0.006)
    #expect(lead.estimate == 0.006)
    #expect(abs(lead.seconds - (0.006 * 2 + 0.001)) < 1e-12)
    lead.record(0.002)
    // A twentieth of the way down, not all of it.
    #expect(abs(lead.estimate - (0.006 - 0.004 / 20)) < 1e-12)
    lead.record(0.007)
    #expect(lead.estimate == 0.007)
  }

  @Test func theLeadIsAtMostOnePeriod() {
    var lead = RenderLead(period: 1.0 / 120, timerSlack: 0.001)
    lead.record(0.05)
    #expect(lead.seconds == 1.0 / 120)
  }

  @Test func nonsenseDurationsAreIgnored() {
    var lead = RenderLead(period: 1.0 / 60, timerSlack: -1)
    lead.record(.nan)
    lead.record(-0.5)
    lead.record(.infinity)
    #expect(lead.estimate == 0)
    #expect(lead.seconds == 0)
  }
}
