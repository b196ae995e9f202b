/// A `clipTo` chain as an error writes it: its ids quoted and joined by arrows. A chain longer
/// than twice ``shownEnds`` keeps that many ids at each end and says how many it leaves out, so
/// that an error about a plugin's 20,000-layer loop stays one short line in a reply and a log.
enum ClipChainText {
  /// How many ids a long chain shows at each end.
  static let shownEnds = 4

  /// `"a" → "b" → "a"`, or `"a" → … → "z"` with the count left out between the ends.
  static func describe<Chain: Collection>(_ chain: Chain, id: (Chain.Element) -> String) -> String {
    func quoted<Part: Sequence>(_ part: Part) -> [String] where Part.Element == Chain.Element {
      part.map { "\"\(id($0))\"" }
    }
    guard chain.count > 2 * shownEnds + 1 else {
      return quoted(chain).joined(separator: " → ")
    }
    let left = chain.count - 2 * shownEnds
    return
      (quoted(chain.prefix(shownEnds)) + ["… \(left) more …"]
      + quoted(chain.suffix(shownEnds))).joined(separator: " → ")
  }
}
