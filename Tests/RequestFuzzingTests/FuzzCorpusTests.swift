import Foundation
import RequestFuzzing
import Testing

/// Every input of the fuzzer's corpus (Tests/FuzzCorpus), among them each input that once found
/// a bug (`regression-*`), through the fuzzer's own check, against the built plugins.
@Suite struct FuzzCorpusTests {
  static let corpusDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzCorpus")
    .path

  static let inputNames: [String] =
    ((try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory)) ?? []).sorted()

  static let check = RequestCheck(pluginDirectory: Bundle.main.bundlePath)

  @Test func theBuiltInAnimatorsAreLoaded() {
    #expect(
      Set(Self.check.animatorNames)
        == ["album-flip", "crossfade", "default-slide", "zoom-present"])
  }

  @Test func theCorpusHoldsTheRegressionInputs() {
    #expect(Self.inputNames.filter { $0.hasPrefix("regression-") }.count >= 7)
  }

  @Test(arguments: inputNames)
  func inputKeepsEveryPromise(name: String) throws {
    let bytes = try Data(contentsOf: URL(fileURLWithPath: "\(Self.corpusDirectory)/\(name)"))
    #expect(Self.check.problem(with: Array(bytes)) == nil)
  }
}
