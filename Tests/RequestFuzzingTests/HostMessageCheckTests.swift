import Foundation
import PluginHost
import RequestFuzzing
import Testing

/// The fuzzer's check of a hostile plugin host's messages, on its corpus
/// (Tests/FuzzCorpus/host-message) and on streams cut anywhere.
@Suite struct HostMessageCheckTests {
  static let check = HostMessageCheck()

  @Test(arguments: FuzzCorpusTests.inputNames(of: "host-message"))
  func corpusInputKeepsThePromises(name: String) throws {
    #expect(Self.check.problem(with: try FuzzCorpusTests.input(name, of: "host-message")) == nil)
  }

  /// The seeds reach the decoders: the scan's report and the answer's timeline decode, so
  /// that mutations start from what the daemon accepts.
  @Test func theSeedsDecodeAsTheDaemonDecodes() throws {
    var reader = HostMessageReader(
      payloadLimits: HostMessageReader.fromHost(maxTimelineBytes: 8 << 20))
    reader.append(try FuzzCorpusTests.input("scan", of: "host-message"))
    reader.append(try FuzzCorpusTests.input("answer-timeline", of: "host-message"))
    let loading = try #require(try reader.next())
    #expect(loading.kind == .loading)
    let scanned = try #require(try reader.next())
    let report = try ScanReport(payload: scanned.payload)
    #expect(report.animators.map(\.name) == ["crossfade", "album-flip", "broken"])
    let answer = try #require(try reader.next())
    #expect(answer.kind == .answer)
    #expect(answer.call == 7)
  }

  /// Every prefix of the scan seed (a `loading` message, then a report), as a host that dies
  /// mid-message leaves it, keeps the promises.
  @Test func everyPrefixOfAScanKeepsThePromises() throws {
    let scan = try FuzzCorpusTests.input("scan", of: "host-message")
    for length in stride(from: 0, through: scan.count, by: 7) {
      #expect(Self.check.problem(with: Array(scan.prefix(length))) == nil, "\(length) bytes")
    }
  }
}
