import Foundation
import Testing
import TransitionClient
import TransitionJSON

@testable import IntegrationSupport

/// Data animators served by a real daemon from a watched directory: hot reload, the last good
/// version, errors in the listing, parameters, ownership.
@Suite(.serialized) struct DaemonDataAnimatorTests {
  /// A present that fades the detail in over `fade` of the duration.
  static func fade(duration: Double, extra: String = "") -> String {
    """
    {"params": {"fade": {"default": 0.5, "min": 0.1, "max": 1}}\(extra),
     "operations": {"present": {"duration": \(duration), "rules": [
       {"select": {"screen": "from"}},
       {"select": {"screen": "to"}, "tracks": [{"property": "alpha", "from": 0, "to": 1, "over": [0, "fade"]}]}
     ]}}}
    """
  }

  /// A daemon watching `<its directory>/animators` (0755, as the plugin host runs as
  /// `nobody` when the tests run as root).
  static func start() throws -> (DaemonProcess, String) {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    chmod(directory, 0o755)
    let animators = directory + "/animators"
    try FileManager.default.createDirectory(
      atPath: animators, withIntermediateDirectories: false,
      attributes: [.posixPermissions: 0o755])
    try DaemonHarness.writeAtomically(fade(duration: 0.4), to: animators + "/fade.json")
    let daemon = try DaemonProcess(arguments: ["--animator-path", animators], directory: directory)
    return (daemon, animators)
  }

  static func listing(_ client: DaemonClient, _ name: String) throws -> JSONValue? {
    try client.rawReply(["op": "animators"]).fields["animators"]?.arrayValue?.first {
      $0["name"]?.stringValue == name
    }
  }

  /// The names the `animators` reply lists, or nil when the request failed.
  static func names(_ client: DaemonClient) -> [String]? {
    (try? client.rawReply(["op": "animators"]))?.fields["animators"]?.arrayValue?.compactMap {
      $0["name"]?.stringValue
    }
  }

  static func begin(_ client: DaemonClient, _ extra: [String: JSONValue] = [:]) throws -> Reply {
    var request: [String: JSONValue] = [
      "op": "begin", "animator": "fade", "context": .object(DaemonScenes.present()),
    ]
    request.merge(extra) { _, new in new }
    return try client.rawReply(request)
  }

  @Test func aFileIsServedAndReloadedWhenItChanges() throws {
    let (daemon, animators) = try Self.start()
    let client = try daemon.client()
    let listed = try #require(try Self.listing(client, "fade"), "\(daemon.log)")
    #expect(listed["kind"]?.stringValue == "data")
    #expect(listed["path"]?.stringValue == animators + "/fade.json")
    #expect(listed["duration"]?.numberValue == 0.4)
    #expect(listed["params"]?["fade"]?["max"]?.numberValue == 1)
    #expect(try Self.begin(client).errorCode == nil)

    // A change takes effect without reload.
    try DaemonHarness.writeAtomically(Self.fade(duration: 0.8), to: animators + "/fade.json")
    let reloaded = DaemonHarness.waitUntil {
      (try? Self.listing(client, "fade"))?["duration"]?.numberValue == 0.8
    }
    #expect(reloaded, "the change was not picked up: \(daemon.log)")

    // A broken edit keeps the last good version serving and says where it is broken.
    try DaemonHarness.writeAtomically(
      Self.fade(duration: 0.8, extra: #", "lett": {}"#), to: animators + "/fade.json")
    let reported = DaemonHarness.waitUntil {
      (try? Self.listing(client, "fade"))?["error"] != nil
    }
    #expect(reported, "\(daemon.log)")
    let broken = try #require(try Self.listing(client, "fade"))
    let error = broken["error"]?.stringValue ?? ""
    #expect(error.hasPrefix(animators + "/fade.json:1:"), "\(error)")
    #expect(error.contains(#"/lett: unknown member "lett""#), "\(error)")
    #expect(broken["duration"]?.numberValue == 0.8)
    #expect(try Self.begin(client).errorCode == nil)
    #expect(daemon.log.contains("its last good version keeps serving"))

    // Removing the file removes the animator.
    unlink(animators + "/fade.json")
    let removed = DaemonHarness.waitUntil {
      Self.names(client).map { !$0.contains("fade") } ?? false
    }
    #expect(removed, "\(daemon.log)")
    #expect(try Self.begin(client).errorCode == "unknown_animator")
  }

  @Test func aFileThatNeverValidatedIsListedAndServesNothing() throws {
    let (daemon, animators) = try Self.start()
    let client = try daemon.client()
    try DaemonHarness.writeAtomically(
      #"{"operations": {"present": {"duration": 1, "rules": [{"selct": {}}]}}}"#,
      to: animators + "/wrong.json")
    let listed = DaemonHarness.waitUntil { Self.names(client)?.contains("wrong") ?? false }
    #expect(listed, "\(daemon.log)")
    let wrong = try #require(try Self.listing(client, "wrong"))
    #expect(wrong["operations"]?.arrayValue?.isEmpty == true)
    #expect(wrong["error"]?.stringValue?.contains("/operations/present/rules/0") == true)
    let reply = try client.rawReply([
      "op": "begin", "animator": "wrong", "context": .object(DaemonScenes.present()),
    ])
    #expect(reply.errorCode == "unsupported_operation")
    #expect(reply.fields["error"]?["message"]?.stringValue?.contains("serves nothing") == true)
    // transitionctl lists it with its error under the table.
    let listing = try TransitionctlRun.run(["animators"], socket: daemon.socketPath)
    #expect(listing.status == 0)
    let line = listing.stdout.split(separator: "\n").first { $0.hasPrefix("wrong: ") }
    #expect(line?.contains(animators + "/wrong.json:1:") == true, "\(listing.stdout)")
  }

  @Test func paramsAreCheckedAgainstTheAnimatorsKnobs() throws {
    let (daemon, _) = try Self.start()
    let client = try daemon.client()
    #expect(try Self.begin(client, ["params": ["fade": 0.2]]).errorCode == nil)
    let outside = try Self.begin(client, ["params": ["fade": 2]])
    #expect(outside.errorCode == "bad_request")
    #expect(
      outside.fields["error"]?["message"]?.stringValue?.contains("params.fade must be in [0.1, 1]")
        == true)
    let unknown = try Self.begin(client, ["params": ["speed": 1]])
    #expect(unknown.errorCode == "bad_request")
    #expect(
      unknown.fields["error"]?["message"]?.stringValue?.contains("not a parameter of fade") == true)
    #expect(try Self.begin(client, ["params": "fast"]).errorCode == "bad_request")
  }

  @Test func aFileOthersCanWriteIsRefused() throws {
    let (daemon, animators) = try Self.start()
    let client = try daemon.client()
    try DaemonHarness.writeAtomically(Self.fade(duration: 0.3), to: animators + "/open.json")
    chmod(animators + "/open.json", 0o666)
    let listed = DaemonHarness.waitUntil { Self.names(client)?.contains("open") ?? false }
    #expect(listed, "\(daemon.log)")
    let open = try #require(try Self.listing(client, "open"))
    #expect(open["error"]?.stringValue?.contains("writable by group or others") == true)
    #expect(open["operations"]?.arrayValue?.isEmpty == true)
  }
  /// The watch of the animator directories follows the config through reloads: a directory
  /// is still watched after several, and one a reload drops is watched no more.
  @Test func theDirectoriesWatchedFollowTheConfigThroughReloads() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    chmod(directory, 0o755)
    let (first, second) = (directory + "/first", directory + "/second")
    for path in [first, second] {
      try FileManager.default.createDirectory(
        atPath: path, withIntermediateDirectories: false,
        attributes: [.posixPermissions: 0o755])
    }
    let config = { (path: String) in #"{"logLevel": "debug", "animatorPaths": ["\#(path)"]}"# }
    let daemon = try DaemonProcess(config: config(first), directory: directory)
    let client = try daemon.client()
    for _ in 0..<3 { _ = try client.reload() }
    try DaemonHarness.writeAtomically(Self.fade(duration: 0.4), to: first + "/kept.json")
    let listed = DaemonHarness.waitUntil { Self.names(client)?.contains("kept") ?? false }
    #expect(listed, "a directory watched through three reloads: \(daemon.log)")

    try config(second).write(
      toFile: try #require(daemon.configPath), atomically: true, encoding: .utf8)
    _ = try client.reload()
    try DaemonHarness.writeAtomically(Self.fade(duration: 0.4), to: second + "/added.json")
    let added = DaemonHarness.waitUntil { Self.names(client)?.contains("added") ?? false }
    #expect(added, "the directory a reload added: \(daemon.log)")
    #expect(Self.names(client)?.contains("kept") == false)

    // The daemon's inotify watches (its /proc fdinfo) are on the directory the reload added
    // and not on the one it dropped.
    let (firstInode, secondInode) = (try Self.inode(of: first), try Self.inode(of: second))
    let followed = DaemonHarness.waitUntil {
      let watched = Self.watchedInodes(of: daemon.pid)
      return watched.contains(secondInode) && !watched.contains(firstInode)
    }
    let watched = Self.watchedInodes(of: daemon.pid)
    #expect(
      followed,
      "a dropped directory still watched or an added one not: \(watched), \(firstInode), \(secondInode)"
    )
  }

  /// The inode number of `path`.
  static func inode(of path: String) throws -> UInt64 {
    var status = stat()
    guard stat(path, &status) == 0 else { throw DaemonHarnessError("stat \(path) failed") }
    return UInt64(status.st_ino)
  }

  /// The inodes process `pid` watches with inotify: the `ino:` of every `inotify wd:` line of
  /// its descriptors' /proc fdinfo (hexadecimal there).
  static func watchedInodes(of pid: Int32) -> Set<UInt64> {
    let directory = "/proc/\(pid)/fdinfo"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    var inodes: Set<UInt64> = []
    for name in names {
      guard let text = try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)
      else { continue }
      for line in text.split(separator: "\n") where line.hasPrefix("inotify wd:") {
        for field in line.split(separator: " ") where field.hasPrefix("ino:") {
          if let inode = UInt64(field.dropFirst(4), radix: 16) { inodes.insert(inode) }
        }
      }
    }
    return inodes
  }
}
