import Foundation
import RequestFuzzing
import Testing

/// The fuzzer's check of the data animator format, on its corpus and on hostile files.
@Suite struct AnimatorFileCheckTests {
  static let check = AnimatorFileCheck()

  @Test(arguments: FuzzCorpusTests.inputNames(of: "animator-file"))
  func corpusInputKeepsTheFormatsPromises(name: String) throws {
    #expect(Self.check.problem(with: try FuzzCorpusTests.input(name, of: "animator-file")) == nil)
  }

  /// Every built-in animator (config/animators) is in the corpus, so that mutations start from
  /// files that validate and build timelines.
  @Test func theCorpusHoldsTheBuiltInAnimators() throws {
    let seeds = FuzzCorpusTests.inputNames(of: "animator-file").filter {
      $0.hasPrefix("animator-")
    }
    let files = try FileManager.default.contentsOfDirectory(
      atPath: FuzzCorpusTests.animatorDirectory
    ).filter { $0.hasSuffix(".json") }.map { "animator-" + $0.dropLast(".json".count) }
    #expect(Set(seeds) == Set(files))
    for name in seeds {
      let seed = try FuzzCorpusTests.input(name, of: "animator-file")
      let file = try Data(
        contentsOf: URL(
          fileURLWithPath: FuzzCorpusTests.animatorDirectory + "/"
            + name.dropFirst("animator-".count) + ".json"))
      #expect(seed == Array(file), "\(name) differs from its file in config/animators")
    }
  }

  @Test(arguments: [
    #"{"operations": {"push": {"duration": 1, "rules": [{"select": {}, "tracks": [{"property": "scale", "from": "1 / (container.width - 300)", "to": 1}]}]}}}"#,
    #"{"operations": {"push": {"duration": 1, "rules": [{"add": "x", "frame": ["0", "0", "-5", "1e300 * 10"]}]}}}"#,
    #"{"operations": {"push": {"duration": 1, "rules": [{"select": {}, "tracks": [{"property": "alpha", "keyframes": [{"start": 0.9, "duration": 0.5, "value": 1}]}]}]}}}"#,
    #"{"operations": {"present": {"duration": 1, "rules": [{"select": {}, "tracks": [{"property": "transform", "to": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0, "1 / 0"]}]}]}}}"#,
    #"{"operations": {"dismiss": {"duration": 1e9, "rules": [{"add": "big", "frame": [0, 0, "1e15", "1e15"]}]}}}"#,
  ])
  func aFileThatFailsOnSomeContextsKeepsThePromises(_ text: String) {
    #expect(Self.check.problem(with: Array(text.utf8)) == nil)
  }
}
