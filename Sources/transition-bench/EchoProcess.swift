import Foundation

/// The floor under an `update`'s round trip as the daemon meets it: an ``UpdateEchoPeer`` in a
/// process of its own, not a thread of the bench's. A reply from another process wakes another
/// address space, which a thread of the client's own process is spared, so this is the floor
/// that the daemon (a process) stands on.
enum EchoProcess {
  /// The hidden command line the bench starts the child with: the flag, then the frame line.
  static let flag = "--echo-peer"

  /// The frame line the child answers with, when the command line is the child's.
  static func helperArguments(_ arguments: [String]) -> String? {
    guard arguments.count == 3, arguments[1] == flag else { return nil }
    return arguments[2]
  }

  /// Runs the child's part: listens, prints `ready <socket path>`, answers one client until it
  /// closes, then exits.
  static func runHelper(frame: String) -> Never {
    do {
      let peer = try UpdateEchoPeer(frame: Array((frame + "\n").utf8))
      print("ready \(peer.path)")
      fflush(nil)
      peer.serveOne()
      exit(0)
    } catch {
      fail("\(flag): \(error)")
    }
  }

  /// A running echo process, started by the bench.
  final class Child {
    private let helper: HelperProcess

    /// Starts the child answering with `frame` (a frame line of the daemon's, without its
    /// `\n`).
    init(frame: String) throws {
      helper = try HelperProcess(
        arguments: [flag, frame], failure: "the echo process did not start")
    }

    /// A client connected to the child.
    func connect() throws -> LineSocket {
      try LineSocket(path: helper.readyDetail)
    }

    func stop() {
      helper.stop()
    }
  }
}
