import Foundation
import Glibc
import Testing
import TransitionClient

@testable import IntegrationSupport

/// Admin ops are refused to a peer of another uid; read ops stay open to it.
@Suite struct DaemonAdminTests {
  /// Runs `transitionctl` as uid/gid 65534 (nobody) against `socket`.
  private func runAsNobody(_ arguments: [String], socket: String) throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    try DaemonHarness.runProgram(
      "/usr/bin/setpriv",
      [
        "--reuid=65534", "--regid=65534", "--clear-groups", DaemonHarness.product("transitionctl"),
        "--socket", socket,
      ] + arguments)
  }

  /// Whether this test process can run `transitionctl` as uid 65534: it must be root, have
  /// setpriv, and the built products must be reachable by other users.
  private func canRunAsNobody() throws -> Bool {
    guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
      return false
    }
    return try runAsNobody(["--version"], socket: "/nonexistent").status == 0
  }

  @Test func adminOpsAreForbiddenToAnotherUser() throws {
    guard try canRunAsNobody() else {
      print("skipped: running a client as another uid needs root, setpriv and readable products")
      return
    }
    // This test only: a socket that other users can reach.
    let directory = try DaemonHarness.makeTemporaryDirectory()
    chmod(directory, 0o755)
    let daemon = try DaemonProcess(config: #"{"socketMode": "0666"}"#, directory: directory)
    let root = try daemon.client()
    let session = try root.begin(context: DaemonScenes.plainPush(), interactive: true).session

    let routes = try runAsNobody(["routes", "--json"], socket: daemon.socketPath)
    #expect(routes.status == 0, "\(routes.stderr)")
    #expect(routes.stdout.contains("album-flip"))

    let use = try runAsNobody(["use", "push", "default-slide"], socket: daemon.socketPath)
    #expect(use.status != 0)
    #expect(use.stderr.contains("forbidden"), "\(use.stderr)")
    #expect(try root.routes()["push"] == "album-flip")

    let end = try runAsNobody(["end", session], socket: daemon.socketPath)
    #expect(end.status != 0)
    #expect(end.stderr.contains("forbidden"), "\(end.stderr)")
    #expect(try root.sessions().map(\.session) == [session])

    let reload = try runAsNobody(["reload"], socket: daemon.socketPath)
    #expect(reload.status != 0)
    #expect(reload.stderr.contains("forbidden"), "\(reload.stderr)")
    // Each refusal's log line: ServerCoreLogTests.aRefusedAdminOpIsLogged.
  }

  @Test func membersOfTheAdminGroupAreAdmins() throws {
    guard try canRunAsNobody(), let group = getgrgid(65534) else {
      print("skipped: running a client as another uid needs root, setpriv and group 65534")
      return
    }
    let groupName = String(cString: group.pointee.gr_name)
    let directory = try DaemonHarness.makeTemporaryDirectory()
    chmod(directory, 0o755)
    let daemon = try DaemonProcess(
      config: #"{"socketMode": "0666", "adminGroup": "\#(groupName)"}"#, directory: directory)
    let use = try runAsNobody(["use", "push", "default-slide"], socket: daemon.socketPath)
    #expect(use.status == 0, "\(use.stderr)")
    #expect(try daemon.client().routes()["push"] == "default-slide")
  }

  @Test func theDaemonsOwnUserIsAnAdmin() throws {
    let daemon = try DaemonProcess()
    let client = try daemon.client()
    #expect(try client.request(["op": "hello"]).object.bool("admin"))
    #expect(try client.route(operation: "pop", animator: "default-slide")["pop"] == "default-slide")
    #expect(try client.reload() >= 4)
  }
}
