import Foundation

/// The heavy user of the `fairness` mode: a child process of transition-bench that runs as
/// `nobody` (so that the daemon charges its sessions to another uid than the bench's), begins
/// `sessions` album-flip pushes over `clients` connections and subscribes to each at `fps` on
/// the connection that began it, then never reads. It prints `ready` once every subscription
/// is sent and runs until it is killed.
enum FairnessLoad {
  /// The hidden command line the bench starts the child with.
  static let flag = "--fairness-load"
  /// The uid and gid the child takes: `nobody` on Debian.
  static let nobody: UInt32 = 65_534

  /// The helper's arguments (socket, clients, sessions, fps) when the command line is one.
  static func helperArguments(_ arguments: [String]) -> [String]? {
    guard arguments.count == 6, arguments[1] == flag else { return nil }
    return Array(arguments.dropFirst(2))
  }

  /// Runs the child's part; never returns.
  static func runHelper(_ arguments: [String]) -> Never {
    guard let clients = Int(arguments[1]), let sessions = Int(arguments[2]),
      let fps = Int(arguments[3])
    else { fail("\(flag): bad arguments \(arguments)") }
    guard setgroups(0, nil) == 0, setgid(nobody) == 0, setuid(nobody) == 0 else {
      fail("\(flag): cannot become uid \(nobody) (run as root): errno \(errno)")
    }
    do {
      var sockets: [LineSocket] = []
      for client in 0..<clients {
        let socket = try LineSocket(path: arguments[0])
        sockets.append(socket)
        let mine = Array(stride(from: client, to: sessions, by: clients))
        for index in mine {
          let reply = try socket.request(
            #"{"op":"begin","session":"heavy\#(index)","duration":600,"context":\#(BenchContexts.albumPush)}"#
          )
          guard reply.contains(#""ok":true"#) else { throw BenchError("begin failed: \(reply)") }
        }
        // Subscribed last, so that no frame comes between a begin and its reply.
        for index in mine {
          try socket.send(#"{"op":"subscribe","session":"heavy\#(index)","fps":\#(fps)}"#)
        }
      }
      print("ready")
      fflush(nil)
      // The sockets stay open until the bench kills this process.
      withExtendedLifetime(sockets) {
        while true { pause() }
      }
      fatalError("unreachable")
    } catch {
      fail("\(flag): \(error)")
    }
  }

  /// A running heavy user, started by the bench.
  final class Child {
    private let helper: HelperProcess

    /// Starts the child against `socketPath` and waits until it has subscribed.
    init(socketPath: String, clients: Int, sessions: Int, fps: Int) throws {
      helper = try HelperProcess(
        arguments: [flag, socketPath, "\(clients)", "\(sessions)", "\(fps)"],
        failure: "the fairness load did not start (it needs root to become nobody)")
    }

    func stop() {
      helper.stop()
    }
  }
}
