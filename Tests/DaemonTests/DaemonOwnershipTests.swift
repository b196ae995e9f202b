import Foundation
import Glibc
import Testing
import TransitionClient

@testable import IntegrationSupport

/// The daemon refuses a socket directory, a lock or a socket it cannot trust, before it binds
/// anything (docs/security.md).
@Suite struct DaemonOwnershipTests {
  static let isRoot = getuid() == 0

  private func start(socket: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try DaemonHarness.runProgram(
      DaemonHarness.product("transitiond"),
      ["--socket", socket, "--plugin-path", DaemonHarness.productsDirectory])
  }

  @Test func aWorldWritableSocketDirectoryIsRefused() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let shared = directory + "/shared"
    #expect(mkdir(shared, 0o700) == 0)
    #expect(chmod(shared, 0o777) == 0)
    let result = try start(socket: shared + "/d.sock")
    #expect(result.status == 78)
    #expect(result.stderr.contains("the socket directory \(shared) is writable by group or others"))
    #expect(!FileManager.default.fileExists(atPath: shared + "/d.sock"))
    #expect(!FileManager.default.fileExists(atPath: shared + "/d.sock.lock"))
  }

  @Test func aSymlinkPlantedAtTheLockCreatesNothingAtItsTarget() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let victim = directory + "/victim"
    #expect(symlink(victim, directory + "/d.sock.lock") == 0)
    let result = try start(socket: directory + "/d.sock")
    #expect(result.status == 78)
    #expect(result.stderr.contains("d.sock.lock is a symbolic link"))
    #expect(!FileManager.default.fileExists(atPath: victim))
  }

  @Test(.enabled(if: isRoot, "needs root to chown the socket directory to another uid"))
  func aSocketDirectoryOfAnotherUserIsRefused() throws {
    let directory = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let foreign = directory + "/foreign"
    #expect(mkdir(foreign, 0o700) == 0)
    #expect(chown(foreign, 65_534, 65_534) == 0)
    let result = try start(socket: foreign + "/d.sock")
    #expect(result.status == 78)
    #expect(result.stderr.contains("is owned by uid 65534"))
    #expect(!FileManager.default.fileExists(atPath: foreign + "/d.sock"))
  }

  @Test func theDefaultSocketIsInAPrivateDirectory() throws {
    // No --socket: $XDG_RUNTIME_DIR/transitiond/transitiond.sock, the directory made 0700.
    let runtime = try DaemonHarness.makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: runtime) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: DaemonHarness.product("transitiond"))
    process.arguments = ["--plugin-path", DaemonHarness.productsDirectory]
    var environment = ProcessInfo.processInfo.environment
    environment["TRANSITIOND_SOCKET"] = nil
    environment["NOTIFY_SOCKET"] = nil
    environment["XDG_RUNTIME_DIR"] = runtime
    process.environment = environment
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer {
      kill(process.processIdentifier, SIGTERM)
      process.waitUntilExit()
    }
    let socket = runtime + "/transitiond/transitiond.sock"
    #expect(
      DaemonHarness.waitUntil {
        (try? DaemonClient(path: socket)).map { $0.close() } != nil
      })
    var status = stat()
    #expect(stat(runtime + "/transitiond", &status) == 0)
    #expect(status.st_mode & 0o7777 == 0o700)
    #expect(status.st_uid == geteuid())
  }
}
