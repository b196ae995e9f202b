import Foundation
import Testing
import TransitionClient
import TransitionViewer

@testable import IntegrationSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The installed layout (docs/install.md): a daemon at `<prefix>/bin/transitiond`, started
/// with no `--config` and no `--plugin-path`, finds its config in `<prefix>/etc/transitiond/`,
/// its plugins in `<prefix>/lib/transitiond/plugins/`, its data animators in
/// `<prefix>/share/transitiond/animators/` and its viewer page in
/// `<prefix>/share/transitiond/viewer/`.
@Suite("transitiond: the installed layout")
struct DaemonInstalledLayoutTests {
  @Test("with no flags the daemon finds its config, plugins, animators and page from its path")
  func findsEverythingFromItsOwnPath() throws {
    let prefix = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    // As an installed prefix is (0755; the plugin host no longer needs to reach it: it loads
    // the descriptors the daemon opened).
    chmod(prefix, 0o755)
    let files = FileManager.default
    for directory in [
      "bin", "lib/transitiond/plugins", "share/transitiond/animators", "etc/transitiond",
    ] {
      try files.createDirectory(
        atPath: prefix + "/" + directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o755])
    }
    try files.copyItem(
      atPath: DaemonHarness.product("transitiond"), toPath: prefix + "/bin/transitiond")
    let plugins = try files.contentsOfDirectory(atPath: DaemonHarness.productsDirectory).filter {
      $0.hasPrefix("lib") && $0.hasSuffix(".so")
    }
    #expect(plugins.count >= 2)
    for plugin in plugins {
      let target = prefix + "/lib/transitiond/plugins/" + plugin
      try files.copyItem(atPath: DaemonHarness.productsDirectory + "/" + plugin, toPath: target)
      chmod(target, 0o644)
    }
    // As `make install` does: the repository's config/animators/*.json.
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { repository.deleteLastPathComponent() }
    let dataDirectory = repository.appendingPathComponent("config/animators").path
    let dataFiles = try files.contentsOfDirectory(atPath: dataDirectory).filter {
      $0.hasSuffix(".json")
    }
    #expect(dataFiles.count >= 3)
    for file in dataFiles {
      let target = prefix + "/share/transitiond/animators/" + file
      try files.copyItem(atPath: dataDirectory + "/" + file, toPath: target)
      chmod(target, 0o644)
    }
    let page = try #require(
      ViewerPage.directory(executableDirectory: DaemonHarness.productsDirectory))
    try files.copyItem(atPath: page, toPath: prefix + "/share/transitiond/viewer")
    let config = prefix + "/etc/transitiond/transitiond.json"
    try #"{"defaultFps": 24, "http": {"listen": "127.0.0.1:0"}}"#.write(
      toFile: config, atomically: true, encoding: .utf8)

    let daemon = try DaemonProcess.startCopy(prefix + "/bin/transitiond")
    #expect(daemon.log.contains("config: \(config)"), "\(daemon.log)")
    let client = try daemon.client()
    defer { client.close() }
    let animators = try client.animators().animators
    #expect(animators.count == plugins.count + dataFiles.count)
    let (data, libraries) = (
      animators.filter { $0.plugin == "data" }, animators.filter { $0.plugin != "data" }
    )
    #expect(libraries.count == plugins.count)
    #expect(
      libraries.allSatisfy { $0.path?.hasPrefix(prefix + "/lib/transitiond/plugins/") == true })
    #expect(Set(data.map { $0.name + ".json" }) == Set(dataFiles))
    #expect(
      data.allSatisfy { $0.path?.hasPrefix(prefix + "/share/transitiond/animators/") == true })
    // The config's defaultFps is in force, and its listener serves the installed page.
    let subscribed = try client.request(["op": "subscribe", "session": "*"])
    #expect(subscribed.object["fps"]?.numberValue == 24)
    let url = try #require(try client.hello().viewer)
    let components = try #require(URLComponents(string: url))
    let reply = try ViewerHTTPClient.get(
      port: UInt16(try #require(components.port)), "/?" + (components.query ?? ""))
    #expect(reply.status == 200)
    let installed = try #require(
      files.contents(atPath: prefix + "/share/transitiond/viewer/index.html"))
    #expect(reply.body == Array(installed))
  }
}
