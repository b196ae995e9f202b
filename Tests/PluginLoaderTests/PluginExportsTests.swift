import Foundation
import Testing

/// Every shipped plugin exports `transitiond_plugin_entry` and nothing else: the Swift one
/// (CubeTurn) through the export list `Plugins/exports.map` (docs/plugins.md, "Exports"),
/// without which a Swift plugin exports about 1,200 symbols of its own and of the SDK.
@Suite struct PluginExportsTests {
  @Test(arguments: ["CubeTurn", "Crossfade"])
  func onlyTheEntrySymbolIsExported(_ library: String) throws {
    let path = (TestDirectory.productsDirectory as NSString)
      .appendingPathComponent("lib\(library).so")
    let listing = try TestDirectory.run("/usr/bin/env", ["nm", "-D", "--defined-only", path])
    let symbols = listing.split(separator: "\n").compactMap { $0.split(separator: " ").last }
    #expect(symbols == ["transitiond_plugin_entry"], "\(listing)")
  }
}
