import Foundation
import Testing
import TransitionJSON

@testable import TransitionRender

/// The DevTools protocol over `--remote-debugging-pipe`, against Debian's real Chromium.
@Suite struct DevToolsPipeTests {
  static let chromium = ExecutableLookup.find(
    ProcessInfo.processInfo.environment["CHROMIUM"] ?? "chromium",
    path: ProcessInfo.processInfo.environment["PATH"])

  @Test(.enabled(if: chromium != nil, "chromium is not installed (make setup installs it)"))
  func commandsGetTheirRepliesAndEventsWaitForTheirTurn() throws {
    let browser = try HeadlessBrowser(executable: Self.chromium!, width: 200, height: 100)
    defer { browser.close() }
    let version = try browser.devTools.call("Browser.getVersion")
    #expect(version["product"]?.stringValue?.contains("Chrome") == true)
    let target = try browser.devTools.call("Target.createTarget", ["url": "about:blank"])
    let attached = try browser.devTools.call(
      "Target.attachToTarget", ["targetId": target["targetId"] ?? .null, "flatten": true])
    let session = try #require(attached["sessionId"]?.stringValue)
    let sum = try browser.devTools.call(
      "Runtime.evaluate",
      ["expression": "new Promise((r) => setTimeout(() => r(6 * 7), 10))", "awaitPromise": true],
      session: session)
    #expect(sum["result"]?["value"]?.numberValue == 42)
    try browser.devTools.call("Page.enable", session: session)
    try browser.devTools.call(
      "Page.navigate", ["url": "data:text/html,<title>x</title>"], session: session)
    let loaded = try browser.devTools.waitForEvent("Page.loadEventFired", session: session)
    #expect(loaded["sessionId"]?.stringValue == session)
    #expect(throws: DevToolsPipe.Failure.self) {
      try browser.devTools.call("No.suchMethod", session: session)
    }
  }

  @Test func aProgramThatIsNotThereIsNotFound() {
    #expect(ExecutableLookup.find("no-such-program-here", path: "/usr/bin:/bin") == nil)
    #expect(ExecutableLookup.find("sh", path: "/nowhere:/bin") == "/bin/sh")
  }
}
