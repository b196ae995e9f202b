import Foundation
import RequestFuzzing
import Testing

/// Every input of the request stream's corpus (Tests/FuzzCorpus/request), among them each input
/// that once found a bug (`regression-*`), through the fuzzer's own checks, against the built
/// plugins and the repository's data animators.
@Suite struct FuzzCorpusTests {
  /// The corpus of one stream of the fuzzer (`request`, `viewer-http`, `host-message`,
  /// `animator-file`).
  static func corpusDirectory(of stream: String) -> String {
    URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("FuzzCorpus/\(stream)").path
  }

  /// The names of a stream's corpus inputs.
  static func inputNames(of stream: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory(of: stream))) ?? [])
      .sorted()
  }

  /// The bytes of one corpus input.
  static func input(_ name: String, of stream: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: "\(corpusDirectory(of: stream))/\(name)")))
  }

  static let corpusDirectory = corpusDirectory(of: "request")
  static let inputNames = inputNames(of: "request")

  @Test func everyStreamHasItsCorpus() {
    for stream in ["request", "viewer-http", "host-message", "animator-file"] {
      #expect(Self.inputNames(of: stream).count >= 5, "\(stream)")
    }
  }

  /// The repository's data animators, the built-in ones.
  static let animatorDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("config/animators").path

  static let check = RequestCheck(
    pluginDirectory: Bundle.main.bundlePath, animatorDirectories: [animatorDirectory])
  static let conversation = ConversationCheck(
    pluginDirectory: Bundle.main.bundlePath, animatorDirectories: [animatorDirectory])

  @Test func theBuiltInAnimatorsAndTheExamplePluginsAreLoaded() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: Self.animatorDirectory)
      .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(".json".count)) }
    #expect(files.contains("album-flip"))
    #expect(Set(Self.check.animatorNames) == Set(files).union(["crossfade", "cube-turn"]))
  }

  @Test func theCorpusHoldsTheRegressionInputs() {
    #expect(Self.inputNames.filter { $0.hasPrefix("regression-") }.count >= 7)
  }

  @Test(arguments: inputNames)
  func inputKeepsEveryPromise(name: String) throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(Self.corpusDirectory)/\(name)"))
    #expect(Self.check.problem(with: Array(bytes)) == nil)
    #expect(Self.conversation.problem(with: Array(bytes)) == nil)
  }

  @Test func theConversationSeedsReachFramesAndReplies() throws {
    let seeds = Self.inputNames.filter { $0.hasPrefix("conversation-") }
    #expect(seeds.count >= 3)
    for name in seeds {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(Self.corpusDirectory)/\(name)"))
      let outcome = Self.conversation.play(Array(bytes))
      #expect(outcome.problem == nil, "\(name)")
      #expect(outcome.frames > 10, "\(name): the core streamed \(outcome.frames) frames")
      #expect(outcome.replies >= 3, "\(name)")
    }
  }

  @Test func aRequestGetsItsOneReply() {
    // The check counts the requests a client sent while connected and the replies it got.
    let outcome = Self.conversation.play(Array(#"{"id":1,"op":"hello"}"#.utf8))
    #expect(outcome.problem == nil)
    #expect(outcome.replies == 1)
  }
}
