import Foundation
import Testing

@testable import DaemonSupport

/// Where an installed daemon looks for its files, from the directory of its executable.
@Suite struct InstalledLayoutTests {
  @Test func everyDirectoryIsUnderThePrefixAboveTheExecutable() {
    let layout = InstalledLayout(executableDirectory: "/opt/td/bin")
    #expect(layout.prefix == "/opt/td")
    #expect(layout.pluginDirectory == "/opt/td/lib/transitiond/plugins")
    #expect(layout.animatorDirectory == "/opt/td/share/transitiond/animators")
    #expect(
      layout.configCandidates == [
        "/opt/td/etc/transitiond/transitiond.json", "/etc/transitiond/transitiond.json",
      ])
  }

  @Test func theFirstConfigThatExistsIsTheDefaultElseNone() {
    let layout = InstalledLayout(executableDirectory: "/opt/td/bin")
    #expect(layout.defaultConfig { _ in true } == "/opt/td/etc/transitiond/transitiond.json")
    #expect(
      layout.defaultConfig { $0.hasPrefix("/etc/") } == "/etc/transitiond/transitiond.json")
    #expect(layout.defaultConfig { _ in false } == nil)
  }

  @Test func aSwiftBuildOfTheCheckoutFindsTheCheckoutsAnimators() throws {
    // This test bundle is a `swift build` of the checkout: .build/<triple>/debug.
    let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let layout = InstalledLayout(
      executableDirectory: checkout + "/.build/x86_64-unknown-linux-gnu/debug")
    #expect(layout.checkoutAnimatorDirectory == checkout + "/config/animators")
    #expect(InstalledLayout(executableDirectory: "/usr/bin").checkoutAnimatorDirectory == nil)
  }
}
