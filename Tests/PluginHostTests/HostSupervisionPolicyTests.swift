import Glibc
import PluginHost
import Testing

/// When the plugin host is restarted and when a plugin is quarantined, without processes.
@Suite struct HostSupervisionPolicyTests {
  func policy() -> HostSupervisionPolicy {
    HostSupervisionPolicy(initialBackoff: 0.1, maximumBackoff: 0.5, quarantineStrikes: 3)
  }

  @Test func restartsBackOffAndStartOverOnceTheHostWorks() {
    var policy = policy()
    let waits = (0..<5).map { _ in
      policy.hostFailed(blaming: nil, whileLoading: false, reason: "crash").restartAfter
    }
    #expect(waits == [0.1, 0.2, 0.4, 0.5, 0.5])
    policy.hostWorked()
    #expect(policy.hostFailed(blaming: nil, whileLoading: false, reason: "x").restartAfter == 0.1)
  }

  @Test func aPluginIsQuarantinedAtItsThirdStrikeAndOthersAreNot() {
    var policy = policy()
    #expect(!policy.hostFailed(blaming: "/a.so", whileLoading: false, reason: "r1").quarantinedNow)
    #expect(!policy.hostFailed(blaming: "/b.so", whileLoading: false, reason: "r").quarantinedNow)
    #expect(!policy.hostFailed(blaming: "/a.so", whileLoading: false, reason: "r2").quarantinedNow)
    #expect(policy.hostFailed(blaming: "/a.so", whileLoading: false, reason: "r3").quarantinedNow)
    #expect(policy.quarantined == ["/a.so": "r3"])
    // Already quarantined: no second announcement.
    #expect(!policy.hostFailed(blaming: "/a.so", whileLoading: false, reason: "r4").quarantinedNow)
  }

  @Test func aCrashWhileLoadingQuarantinesAtOnceAndReloadForgives() {
    var policy = policy()
    #expect(policy.hostFailed(blaming: "/c.so", whileLoading: true, reason: "load").quarantinedNow)
    #expect(policy.quarantined["/c.so"] == "load")
    policy.liftQuarantine()
    #expect(policy.quarantined.isEmpty)
    #expect(policy.strikes.isEmpty)
  }
}

/// Telling a plugin that hung from one that never got a CPU.
@Suite struct ProcessCPUSampleTests {
  @Test func aStatLineIsParsedPastACommandWithSpacesAndParentheses() {
    let line =
      "4242 (transitiond (x) y) R 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 1 1 1"
    #expect(
      ProcessCPUSample.parse(line, ticksPerSecond: 100)
        == ProcessCPUSample(state: "R", cpuSeconds: 3))
    #expect(ProcessCPUSample.parse("4242 (short) R 1", ticksPerSecond: 100) == nil)
    #expect(
      ProcessCPUSample.parse(
        "1 (a) S 0 1 1 0 -1 0 0 0 0 0 7 3 0 0\n", ticksPerSecond: 10)
        == ProcessCPUSample(state: "S", cpuSeconds: 1))
    #expect(
      ProcessCPUSample.parse("1 (a) S 0 1 1 0 -1 0 0 0 0 0 7x 3 0 0", ticksPerSecond: 10) == nil)
    #expect(ProcessCPUSample.parse("1 (a) S 0 1 1 0 -1 0 0 0 0 0 7\n3", ticksPerSecond: 10) == nil)
  }

  @Test func onlyARunnableProcessThatGotLittleCPUWasStarved() {
    let start = ProcessCPUSample(state: "R", cpuSeconds: 1)
    #expect(ProcessCPUSample(state: "R", cpuSeconds: 1.02).wasStarved(since: start, elapsed: 0.25))
    #expect(!ProcessCPUSample(state: "R", cpuSeconds: 1.2).wasStarved(since: start, elapsed: 0.25))
    #expect(!ProcessCPUSample(state: "S", cpuSeconds: 1).wasStarved(since: start, elapsed: 0.25))
  }

  @Test func thisProcessCanBeRead() throws {
    let sample = try #require(ProcessCPUSample.read(pid: getpid()))
    #expect(sample.cpuSeconds >= 0)
  }
}
