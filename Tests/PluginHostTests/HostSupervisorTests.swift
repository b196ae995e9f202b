import Glibc
import PluginHost
import PluginLoader
import PluginValues
import Testing

/// The plugin host's supervisor without a process: every path from a scan to a quarantine,
/// driven by a clock advanced by hand and by the bytes a host (healthy or hostile) would send.
@Suite struct HostSupervisorTests {
  typealias Driver = HostSupervisorDriver

  // MARK: Scans

  @Test func aScanHandsOverEveryOpenFileThenListsThemAndReportsTheDaemonsFindingsFirst() throws {
    var driver = Driver()
    #expect(driver.handle(.start) == [.startHost])
    #expect(driver.machine.starts == 1)
    let effects = driver.handle(.hostStarted(pid: 7))
    #expect(driver.machine.phase == .loading)
    let sent = Driver.sent(effects)
    // One file message per descriptor, in order, then the scan listing every file.
    #expect(sent.map(\.0.kind) == [.file, .file, .file, .scan])
    #expect(sent.map(\.1) == [40, 41, 42, nil])
    let request = try ScanRequest(payload: sent[3].0.payload)
    #expect(request.files.map(\.path) == driver.environment.files.files.map(\.path))
    #expect(request.files.allSatisfy { $0.descriptor == -1 })
    #expect(request.files[3].refusal == "refused: writable by others")
    #expect(request.handedOver == 3)

    let hostDiagnostic = PluginDiagnostic(
      .loaded, .info, path: "/plugins/libFade.so", "loaded plugin fade")
    let scanned = driver.host(Driver.scanned(Driver.animators, diagnostics: [hostDiagnostic]))
    let report = try #require(
      scanned.compactMap { effect -> ScanReport? in
        if case .scanned(let report) = effect { return report }
        return nil
      }.first)
    #expect(report.diagnostics == driver.environment.files.diagnostics + [hostDiagnostic])
    #expect(driver.machine.phase == .ready)
    #expect(driver.machine.hasScanned)
    #expect(driver.machine.catalog.map(\.name) == ["fade", "turn", "slide"])
    #expect(driver.machine.animator(named: "turn")?.libraryPath == "/plugins/libTurn.so")
    #expect(driver.machine.nextDeadline == nil)
  }

  @Test func aRescanIsAnsweredWithTheReportOfTheScanSentAfterIt() throws {
    var driver = Driver()
    driver.startAndScan()
    var settings = Driver.settings
    settings.callTimeout = 0.5
    let effects = driver.handle(.rescan(settings, answer: 9))
    #expect(Driver.sent(effects).last?.0.kind == .scan)
    #expect(driver.machine.settings.callTimeout == 0.5)
    let answered = driver.host(Driver.scanned(Driver.animators))
    #expect(
      answered.contains {
        if case .answerRescan(9, .success(let report)) = $0 {
          return report.animators == Driver.animators
        }
        return false
      })
  }

  @Test func aScanWantedWhileACallIsAtTheHostGoesOutWhenTheCallIsAnswered() {
    var driver = Driver()
    driver.startAndScan()
    let (ticket, sent) = driver.call("fade")
    #expect(Driver.sent(sent).map(\.0.kind) == [.timeline])
    #expect(driver.handle(.requestScan).isEmpty)
    let effects = driver.host(Driver.timeline(1))
    #expect(Driver.answers(effects).map(\.0) == [ticket])
    #expect(Driver.sent(effects).last?.0.kind == .scan)
    #expect(driver.machine.phase == .loading)
  }

  // MARK: Calls

  @Test func callsQueueAndAreAnsweredInOrder() throws {
    var driver = Driver()
    driver.startAndScan()
    let (first, firstEffects) = driver.call("fade")
    let (second, secondEffects) = driver.call("turn")
    let call = try #require(Driver.sent(firstEffects).first?.0)
    #expect(call.kind == .timeline)
    #expect(TimelineCall(payload: call.payload)?.animator == "fade")
    #expect(secondEffects.isEmpty, "one call at the host at a time")
    let answeredFirst = driver.host(Driver.timeline(call.call))
    #expect(Driver.answers(answeredFirst).map(\.0) == [first])
    let next = try #require(Driver.sent(answeredFirst).first?.0)
    #expect(TimelineCall(payload: next.payload)?.animator == "turn")
    let answeredSecond = driver.host(
      HostMessage(.answer, status: HostMessage.Status.declined.rawValue, call: next.call))
    #expect(Driver.answers(answeredSecond).map(\.0) == [second])
    #expect(Driver.answers(answeredSecond).first?.1 == .declined)
  }

  @Test func anUnknownAnimatorIsAnsweredAtOnce() {
    var driver = Driver()
    driver.startAndScan()
    let (ticket, effects) = driver.call("nobody")
    #expect(effects == [.answer(ticket, .failed("no animator named nobody is loaded"))])
  }

  @Test func aFailedAnswerCarriesThePluginsMessageCutTo1000Bytes() {
    var settings = Driver.settings
    settings.maxTimelineBytes = 10_000
    var driver = Driver(settings: settings)
    driver.startAndScan()
    _ = driver.call("fade")
    let effects = driver.host(
      HostMessage(
        .answer, status: HostMessage.Status.failed.rawValue, call: 1,
        payload: Array(String(repeating: "x", count: 5000).utf8)))
    #expect(Driver.answers(effects).first?.1 == .failed(String(repeating: "x", count: 1000)))
  }

  // MARK: Deadlines

  @Test func aCallPastItsDeadlineKillsTheHostAndIsAnswered() {
    var driver = Driver()
    driver.startAndScan()
    let (ticket, _) = driver.call("fade")
    let (waiting, _) = driver.call("turn")
    #expect(driver.machine.nextDeadline == 100.25)
    driver.environment.now = 100.25
    let effects = driver.handle(.timePassed)
    #expect(effects.first == .killHost)
    #expect(
      Driver.logs(effects) == [
        "plugin host (pid 7) killed: animator fade did not answer within 250 ms "
          + "(limits.pluginCallTimeoutMs); restarting in 100 ms"
      ])
    let message = "animator fade did not answer within 250 ms (limits.pluginCallTimeoutMs)"
    #expect(
      Driver.answers(effects).map(\.0) == [ticket, waiting])
    #expect(Driver.answers(effects).first?.1 == .faulted(.timeout, message))
    #expect(
      Driver.answers(effects).last?.1
        == .faulted(.unavailable, "the plugin host went down (\(message))"))
    #expect(driver.machine.phase == .restarting)
    #expect(driver.machine.policy.strikes == ["/plugins/libFade.so": 1])
    // The restart after the backoff.
    #expect(driver.machine.nextDeadline == 100.35)
    driver.environment.now = 100.35
    #expect(driver.handle(.timePassed) == [.startHost])
    #expect(driver.machine.starts == 2)
  }

  @Test func aCallStarvedOfCPUTimesOutWithoutAStrike() {
    var driver = Driver()
    driver.startAndScan()
    driver.environment.samples = [
      ProcessCPUSample(state: "R", cpuSeconds: 1), ProcessCPUSample(state: "R", cpuSeconds: 1.01),
    ]
    let (ticket, _) = driver.call("fade")
    driver.environment.now += 0.25
    let effects = driver.handle(.timePassed)
    #expect(
      Driver.answers(effects).first?.1
        == .faulted(
          .timeout,
          "animator fade did not answer within 250 ms (limits.pluginCallTimeoutMs), the plugin "
            + "host waiting for a CPU (the machine is overloaded)"))
    #expect(Driver.answers(effects).first?.0 == ticket)
    #expect(driver.machine.policy.strikes.isEmpty)
  }

  @Test func aCallQueuedBehindAScanPastItsDeadlineIsAnsweredAndTheHostKept() {
    var driver = Driver()
    driver.startAndScan()
    _ = driver.handle(.requestScan)
    let (ticket, queued) = driver.call("fade")
    #expect(queued.isEmpty)
    driver.environment.now += 0.25
    let effects = driver.handle(.timePassed)
    #expect(
      effects == [
        .answer(
          ticket,
          .faulted(
            .timeout,
            "animator fade was not called within 250 ms: the plugin host was busy "
              + "(limits.pluginCallTimeoutMs)"))
      ])
    #expect(driver.machine.hostPID == 7)
    // The scan's own deadline is still ahead.
    #expect(driver.machine.nextDeadline == 101)
  }

  @Test func aLibraryThatHangsWhileLoadingIsBlamedByName() {
    var driver = Driver()
    driver.startScanning()
    driver.environment.now += 0.5
    #expect(driver.host(Driver.loading(1)).isEmpty)
    #expect(driver.machine.nextDeadline == 101.5, "each library gets the whole load deadline")
    driver.environment.now = 101.5
    let effects = driver.handle(.timePassed)
    #expect(effects.contains(.killHost))
    let reason =
      "crashed or hung the plugin host while loading (opening /plugins/libTurn.so took more "
      + "than 1000 ms (limits.pluginLoadTimeoutMs))"
    #expect(driver.machine.quarantineReason(ofLibrary: "/plugins/libTurn.so") == reason)
    #expect(
      Driver.logs(effects).last
        == "plugin /plugins/libTurn.so quarantined after 1 fault: \(reason); its animators fall "
        + "back to default-slide until the next reload")
  }

  // MARK: The host dying

  @Test func theHostDyingMidCallNamesTheSignalAndTheAnimator() {
    var driver = Driver()
    driver.startAndScan()
    let (ticket, _) = driver.call("turn")
    let effects = driver.handle(.hostEnded(waitStatus: SIGSEGV))
    #expect(
      Driver.answers(effects).first
        .map {
          $0.0 == ticket
            && $0.1
              == .faulted(
                .crashed,
                "the plugin host was killed by SIGSEGV (Segmentation fault) during a call to "
                  + "animator turn")
        } == true)
    #expect(driver.machine.hostPID == nil)
    // Its end reported twice (socket, then pidfd): one fault.
    #expect(driver.handle(.hostEnded(waitStatus: SIGSEGV)).isEmpty)
  }

  @Test func aLibraryThatCrashesWhileLoadingIsQuarantinedAndTheScanRetriedWithoutIt() throws {
    var driver = Driver()
    driver.startScanning()
    _ = driver.handle(.rescan(Driver.settings, answer: 3))
    _ = driver.host(Driver.loading(0))
    let crashed = driver.handle(.hostEnded(waitStatus: SIGABRT))
    #expect(!crashed.contains { if case .answerRescan = $0 { return true } else { return false } })
    #expect(
      !crashed.contains {
        if case .failedBeforeFirstScan = $0 { return true } else { return false }
      }, "a library is blamed: the start goes on")
    #expect(driver.machine.policy.quarantined.keys.sorted() == ["/plugins/libFade.so"])
    driver.environment.now += 0.1
    #expect(driver.handle(.timePassed) == [.startHost])
    let retry = driver.handle(.hostStarted(pid: 8))
    #expect(driver.environment.skipped.last == ["/plugins/libFade.so"])
    #expect(Driver.sent(retry).map(\.1) == [41, 42, nil])
    let answered = driver.host(Driver.scanned(Array(Driver.animators.dropFirst())))
    #expect(
      answered.contains {
        if case .answerRescan(3, .success) = $0 { return true } else { return false }
      })
  }

  @Test func aPluginIsQuarantinedAtItsStrikesAndTheReloadLiftsIt() {
    var driver = Driver()
    driver.startAndScan()
    // The second crash quarantines libFade.so: the next scan skips it.
    for (pid, reported) in [(8, Driver.animators), (9, Array(Driver.animators.dropFirst()))] {
      _ = driver.call("fade")
      _ = driver.handle(.hostEnded(waitStatus: SIGSEGV))
      driver.environment.now += 1
      #expect(driver.handle(.timePassed) == [.startHost])
      _ = driver.handle(.hostStarted(pid: Int32(pid)))
      _ = driver.host(Driver.scanned(reported))
    }
    // The quarantined library's animator stays listed though the host no longer reports it.
    #expect(driver.machine.catalog.map(\.name) == ["turn", "slide", "fade"])
    #expect(driver.environment.skipped.last == ["/plugins/libFade.so"])
    let (ticket, effects) = driver.call("fade")
    #expect(
      effects == [
        .answer(
          ticket,
          .faulted(
            .quarantined,
            "animator fade is quarantined until the next reload: its plugin /plugins/libFade.so "
              + "brought the plugin host down (the plugin host was killed by SIGSEGV "
              + "(Segmentation fault) during a call to animator fade)"))
      ])
    _ = driver.handle(.rescan(Driver.settings, answer: nil))
    #expect(driver.machine.policy.quarantined.isEmpty)
    #expect(driver.environment.skipped.last == [])
  }

  @Test func restartsBackOffUntilTheHostWorks() {
    var driver = Driver()
    driver.startAndScan()
    var waits: [Double] = []
    for pid: Int32 in 8...11 {
      _ = driver.handle(.hostEnded(waitStatus: 0))
      let before = driver.environment.now
      let deadline = driver.machine.nextDeadline ?? 0
      waits.append(((deadline - before) * 1000).rounded())
      driver.environment.now = deadline
      _ = driver.handle(.timePassed)
      _ = driver.handle(.hostStarted(pid: pid))
    }
    #expect(waits == [100, 200, 400, 800])
  }

  @Test func aHostThatCannotStartIsRetriedAndTheFirstStartIsToldWhy() {
    var driver = Driver()
    _ = driver.handle(.rescan(Driver.settings, answer: 5))
    _ = driver.handle(.start)
    let effects = driver.handle(.hostFailedToStart("posix_spawn: no such file"))
    #expect(effects.first == .failedBeforeFirstScan("posix_spawn: no such file"))
    #expect(
      effects.contains(
        .answerRescan(
          5,
          .failure(
            HostSupervisor.RescanFailure(
              message: "the plugin host could not start: posix_spawn: no such file")))))
    #expect(driver.machine.phase == .restarting)
    #expect(driver.machine.policy.consecutiveFailures == 1)
    let (ticket, refused) = driver.call("fade")
    #expect(
      refused == [
        .answer(ticket, .failed("no animator named fade is loaded"))
      ])
  }

  @Test func stoppingAnswersEverythingAndStartsNothingMore() {
    var driver = Driver()
    driver.startAndScan()
    let (first, _) = driver.call("fade")
    let (second, _) = driver.call("turn")
    _ = driver.handle(.rescan(Driver.settings, answer: 4))
    let effects = driver.handle(.stop)
    #expect(effects.first == .killHost)
    #expect(
      Driver.answers(effects).map(\.0) == [first, second]
        && Driver.answers(effects).allSatisfy {
          $0.1 == .faulted(.unavailable, "the daemon is stopping")
        })
    #expect(
      effects.last
        == .answerRescan(
          4, .failure(HostSupervisor.RescanFailure(message: "the daemon is stopping"))))
    #expect(driver.machine.phase == .stopped)
    #expect(driver.machine.nextDeadline == nil)
    let (late, refused) = driver.call("fade")
    #expect(refused == [.answer(late, .faulted(.unavailable, "the plugin host is stopped"))])
    #expect(driver.handle(.start).isEmpty)
  }

  // MARK: A hostile host

  @Test func aKindTheHostMayNotSendKillsIt() {
    var driver = Driver()
    driver.startAndScan()
    let (ticket, _) = driver.call("fade")
    let effects = driver.host(HostMessage(.timeline, call: 1, payload: [0, 0]))
    #expect(effects.first == .killHost)
    #expect(
      Driver.answers(effects).first
        .map {
          $0.0 == ticket
            && $0.1
              == .faulted(
                .protocolViolation,
                "the plugin host broke the protocol: malformed(\"unexpected message kind 2\")")
        } == true, "\(effects)")
  }

  @Test func anAnswerToACallNeverAskedKillsTheHost() {
    var driver = Driver()
    driver.startAndScan()
    let (ticket, _) = driver.call("fade")
    let effects = driver.host(Driver.timeline(99))
    #expect(
      Driver.answers(effects).first?.1
        == .faulted(
          .protocolViolation, "the plugin host sent an unexpected answer message (call 99)"))
    #expect(Driver.answers(effects).first?.0 == ticket)
    // An answer while no call is out, too.
    var idle = Driver()
    idle.startAndScan()
    #expect(idle.host(Driver.timeline(1)).first == .killHost)
  }

  @Test func aScanReportWhenNoScanWasAskedKillsTheHost() {
    var driver = Driver()
    driver.startAndScan()
    #expect(driver.host(Driver.scanned(Driver.animators)).first == .killHost)
  }

  @Test func anOversizedTimelineIsRefusedFromItsLengthField() {
    var driver = Driver()
    driver.startAndScan()
    let (ticket, _) = driver.call("turn")
    // Only the header of a 5000-byte answer: refused before its payload arrives.
    let header = Array(Driver.timeline(1, String(repeating: " ", count: 5000)).encoded.prefix(10))
    let effects = driver.handle(.received(header))
    #expect(
      Driver.answers(effects).first
        .map {
          $0.0 == ticket
            && $0.1
              == .faulted(
                .oversized,
                "animator turn returned a timeline of 5000 bytes, more than the limit of 1000 "
                  + "(limits.maxTimelineBytes)")
        } == true)
    #expect(driver.machine.policy.strikes == ["/plugins/libTurn.so": 1])
  }

  @Test func anOversizedMessageOfAnotherKindIsAProtocolViolation() {
    var driver = Driver()
    driver.startScanning()
    let loading = HostMessage(.loading, payload: [UInt8](repeating: 0, count: 5000))
    let effects = driver.handle(.received(Array(loading.encoded.prefix(10))))
    #expect(
      Driver.logs(effects).first?.hasPrefix(
        "plugin host (pid 7) killed: the plugin host sent a message of 5000 bytes") == true)
  }

  @Test(
    arguments: [
      [0, 0, 0, 1, 9], [0, 0, 0, 6, 200, 0, 0, 0, 0, 0], [0xff, 0xff, 0xff, 0xff, 5],
    ] as [[UInt8]])
  func garbageKillsTheHost(bytes: [UInt8]) {
    var driver = Driver()
    driver.startAndScan()
    let effects = driver.handle(.received(bytes))
    #expect(effects.first == .killHost, "\(effects)")
    #expect(driver.machine.phase == .restarting)
  }

  @Test func anAnswerOfUnknownStatusKillsTheHost() {
    var driver = Driver()
    driver.startAndScan()
    _ = driver.call("fade")
    let effects = driver.host(HostMessage(.answer, status: 9, call: 1))
    #expect(
      Driver.answers(effects).first?.1
        == .faulted(.protocolViolation, "the plugin host sent an answer of unknown status"))
  }

  @Test func theHostCannotBlameALibraryItWasNotGiven() {
    var driver = Driver()
    driver.startScanning()
    // Index 3 is the refused data file, 9 is past the list, 2 is a data file.
    for index: UInt32 in [3, 9, 2] {
      var scanning = driver
      let effects = scanning.host(Driver.loading(index))
      #expect(effects.first == .killHost)
      #expect(scanning.machine.policy.strikes.isEmpty, "no library blamed")
      #expect(
        Driver.logs(effects).first
          == "plugin host (pid 7) killed: the plugin host announced a library it was not given; "
          + "restarting in 100 ms")
    }
  }

  @Test func theHostCannotReportAnimatorsOfAFileItWasNotGiven() {
    var driver = Driver()
    driver.startScanning()
    let stranger = RegisteredAnimator(
      name: "evil", operations: [.push], defaultDuration: 1, pluginName: "evil",
      pluginVersion: "1", libraryPath: "/home/mallory/libEvil.so")
    let effects = driver.host(Driver.scanned([stranger]))
    #expect(effects.first == .killHost)
    #expect(driver.machine.catalog.isEmpty)
    // The refused data file was listed, so its error may be reported under its path.
    var listed = Driver()
    listed.startScanning()
    let refused = RegisteredAnimator(
      name: "open", operations: [], defaultDuration: 1, pluginName: "data", pluginVersion: "",
      libraryPath: "/animators/open.json", kind: .data, error: "refused: writable by others")
    #expect(!listed.host(Driver.scanned([refused])).contains(.killHost))
    #expect(listed.machine.animator(named: "open")?.error == "refused: writable by others")
  }

  @Test func anUnreadableReportKillsTheHost() {
    var driver = Driver()
    driver.startScanning()
    let effects = driver.host(HostMessage(.scanned, payload: Array("{\"animators\":3}".utf8)))
    #expect(
      Driver.logs(effects).first?.hasPrefix(
        "plugin host (pid 7) killed: the plugin host sent an unreadable report") == true)
    #expect(
      effects.contains {
        if case .failedBeforeFirstScan(let reason) = $0 {
          return reason.hasPrefix("the plugin host sent an unreadable report")
        }
        return false
      })
  }

  @Test func bytesFromAHostAlreadyKilledAreIgnored() {
    var driver = Driver()
    driver.startAndScan()
    _ = driver.handle(.hostEnded(waitStatus: 0))
    #expect(driver.handle(.received(Driver.timeline(1).encoded)).isEmpty)
    #expect(driver.handle(.channelFailed("gone")).isEmpty)
  }

  // MARK: From bytes to effects (the fuzzer's entry)

  @Test func theBytesEntryAnswersASoundAnswerAndKillsForGarbage() {
    let answer = Driver.timeline(1).encoded
    #expect(
      HostSupervisor.effects(ofHostBytes: answer, at: .callAtHost)
        == [.answer(1, .timeline(Array(#"{"duration":1}"#.utf8)))])
    #expect(HostSupervisor.effects(ofHostBytes: answer, at: .idle).first == .killHost)
    #expect(HostSupervisor.effects(ofHostBytes: answer, at: .scanning).first == .killHost)
    #expect(HostSupervisor.effects(ofHostBytes: Array(answer.prefix(7)), at: .idle).isEmpty)
    let loading = Driver.loading(0).encoded
    #expect(HostSupervisor.effects(ofHostBytes: loading, at: .scanning).isEmpty)
    #expect(
      HostSupervisor.effects(ofHostBytes: Driver.loading(1).encoded, at: .scanning).first
        == .killHost, "file 1 is a data animator, not a library")
  }

  @Test func randomBytesNeverGetMoreThanAKill() {
    // A fixed-seed generator (xorshift): the same bytes every run.
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt8 {
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return UInt8(truncatingIfNeeded: state)
    }
    for round in 0..<300 {
      let count = Int(next()) % 64
      var bytes = (0..<count).map { _ in next() }
      // Half the rounds get a plausible header: a small length and a kind the host may send.
      if round % 2 == 0 && count >= 10 {
        bytes[0] = 0
        bytes[1] = 0
        bytes[2] = 0
        bytes[3] = UInt8(6 + Int(next()) % max(1, count - 9))
        bytes[4] = [3, 4, 5][Int(next()) % 3]
      }
      for stage in HostSupervisor.Stage.allCases {
        let effects = HostSupervisor.effects(ofHostBytes: bytes, at: stage)
        let harmless = effects.allSatisfy { effect in
          switch effect {
          case .killHost, .log, .answer, .failedBeforeFirstScan, .answerRescan: return true
          case .startHost, .send, .scanned: return false
          }
        }
        #expect(harmless, "\(bytes) at \(stage): \(effects)")
        #expect(effects.isEmpty || effects.first == .killHost || stage == .callAtHost)
      }
    }
  }
}
