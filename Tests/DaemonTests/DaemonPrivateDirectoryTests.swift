import Foundation
import Glibc
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// A daemon run by root from under a directory only root may enter (mode 0700, as `/root`
/// is): the plugin host, which runs as `pluginUser`, can reach none of its files, and loads
/// what the daemon opened and handed it (docs/plugins.md, "The host protocol").
@Suite(.serialized) struct DaemonPrivateDirectoryTests {
  /// The installed layout under a fresh 0700 directory: `bin/transitiond`, and the example
  /// plugins and the data animators when `withAnimators`.
  static func privatePrefix(withAnimators: Bool, libraryMode: mode_t = 0o644) throws -> String {
    let prefix = try DaemonHarness.makeTemporaryDirectory()
    chmod(prefix, 0o700)
    let files = FileManager.default
    for directory in ["bin", "lib/transitiond/plugins", "share/transitiond/animators"] {
      try files.createDirectory(
        atPath: prefix + "/" + directory, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o755])
    }
    try files.copyItem(
      atPath: DaemonHarness.product("transitiond"), toPath: prefix + "/bin/transitiond")
    guard withAnimators else { return prefix }
    for plugin in ["libCubeTurn.so", "libCrossfade.so"] {
      let target = prefix + "/lib/transitiond/plugins/" + plugin
      try files.copyItem(atPath: DaemonHarness.product(plugin), toPath: target)
      chmod(target, libraryMode)
    }
    var repository = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { repository.deleteLastPathComponent() }
    let data = repository.appendingPathComponent("config/animators").path
    for file in try files.contentsOfDirectory(atPath: data) where file.hasSuffix(".json") {
      let target = prefix + "/share/transitiond/animators/" + file
      try files.copyItem(atPath: data + "/" + file, toPath: target)
      chmod(target, 0o644)
    }
    return prefix
  }

  /// A library only the daemon's user may read (mode 0600): the host, which runs as
  /// `pluginUser`, cannot open it again by `/proc/self/fd/N` and loads a copy in memory made
  /// through the descriptor the daemon handed it.
  @Test func aLibraryOnlyTheDaemonsUserMayReadIsServed() throws {
    let prefix = try Self.privatePrefix(withAnimators: true, libraryMode: 0o600)
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    let library = prefix + "/lib/transitiond/plugins/libCrossfade.so"
    if getuid() == 0 {
      #expect(!DaemonHarness.reachable(library, asUID: 65534))
    }
    let daemon = try DaemonProcess.startCopy(prefix + "/bin/transitiond")
    let client = try daemon.client()
    defer { client.close() }
    let listing = try client.rawReply(["op": "animators"])
    let names = (listing.fields["animators"]?.arrayValue ?? []).compactMap {
      $0["name"]?.stringValue
    }
    #expect(names.contains("crossfade") && names.contains("cube-turn"), "\(listing.line)")
    for animator in ["crossfade", "cube-turn"] {
      let reply = try client.rawReply([
        "op": "begin", "animator": .string(animator), "context": .object(DaemonScenes.present()),
      ])
      #expect(reply.fields["animator"]?.stringValue == animator, "\(reply.line)")
      #expect(reply.fields["fallback"]?.boolValue == false, "\(reply.line)\n\(daemon.log)")
    }
    #expect(!daemon.log.lowercased().contains("permission denied"), "\(daemon.log)")
  }

  @Test func thePluginHostLoadsWhatTheDaemonOpenedForIt() throws {
    let prefix = try Self.privatePrefix(withAnimators: true)
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    let daemon = try DaemonProcess.startCopy(prefix + "/bin/transitiond")
    let client = try daemon.client()
    defer { client.close() }
    let listing = try client.rawReply(["op": "animators"])
    let hosts = listing.fields["pluginHosts"]?.arrayValue ?? []
    #expect(hosts.count == 3, "\(listing.line)")
    if getuid() == 0 {
      #expect(hosts.allSatisfy { $0["user"]?.stringValue == "nobody" }, "\(listing.line)")
      // nobody cannot reach a file under the prefix.
      #expect(
        !DaemonHarness.reachable(prefix + "/bin/transitiond", asUID: 65534),
        "the prefix is not private")
    }
    #expect(listing.fields["missing"] == nil, "\(listing.line)")
    let animators = listing.fields["animators"]?.arrayValue ?? []
    // Reported under their real paths, not the descriptors they were loaded through.
    let paths = Dictionary(
      animators.compactMap { animator in
        animator["name"]?.stringValue.map { ($0, animator["path"]?.stringValue ?? "") }
      }, uniquingKeysWith: { first, _ in first })
    #expect(paths["cube-turn"] == prefix + "/lib/transitiond/plugins/libCubeTurn.so")
    #expect(paths["crossfade"] == prefix + "/lib/transitiond/plugins/libCrossfade.so")
    #expect(paths["album-flip"] == prefix + "/share/transitiond/animators/album-flip.json")
    for (animator, context) in [
      ("album-flip", DaemonScenes.albumPush()), ("cube-turn", DaemonScenes.present()),
      ("crossfade", DaemonScenes.present()),
    ] {
      let reply = try client.rawReply([
        "op": "begin", "animator": .string(animator), "context": .object(context),
      ])
      #expect(reply.ok, "\(animator): \(reply.line)")
      #expect(reply.fields["animator"]?.stringValue == animator, "\(reply.line)")
      #expect(reply.fields["fallback"]?.boolValue == false, "\(reply.line)\n\(daemon.log)")
    }
    #expect(!daemon.log.contains("permission denied"), "\(daemon.log)")
    #expect(!daemon.log.contains("/proc/self/fd"), "\(daemon.log)")
  }

  @Test func withNothingToLoadTheDaemonServesItsFallbackAndSaysWhy() throws {
    let prefix = try Self.privatePrefix(withAnimators: false)
    defer { try? FileManager.default.removeItem(atPath: prefix) }
    let daemon = try DaemonProcess.startCopy(prefix + "/bin/transitiond")
    let client = try daemon.client()
    defer { client.close() }
    let listing = try client.rawReply(["op": "animators"])
    let names = listing.fields["animators"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
    #expect(names == ["default-slide"], "\(listing.line)")
    let missing = listing.fields["missing"]?.stringValue ?? ""
    #expect(missing.hasPrefix("no animators found (searched for plugins: "), "\(listing.line)")
    #expect(missing.contains(prefix + "/bin"), "\(missing)")
    #expect(missing.hasSuffix("only the built-in default-slide serves"), "\(missing)")
    #expect(daemon.log.contains(missing), "\(daemon.log)")
    let reply = try client.rawReply([
      "op": "begin", "context": .object(DaemonScenes.plainPush()), "animator": "default-slide",
    ])
    #expect(reply.ok && reply.fields["animator"]?.stringValue == "default-slide", "\(reply.line)")
  }
}

extension DaemonHarness {
  /// Whether the user `uid` can open `path` for reading: a child process that drops to it and
  /// tries.
  static func reachable(_ path: String, asUID uid: uid_t) -> Bool {
    let child = fork()
    if child == 0 {
      guard setgid(gid_t(uid)) == 0, setuid(uid) == 0 else { _exit(2) }
      _exit(open(path, O_RDONLY) >= 0 ? 0 : 1)
    }
    var status: Int32 = 0
    waitpid(child, &status, 0)
    return status == 0
  }
}
