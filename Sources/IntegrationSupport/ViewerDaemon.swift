import Foundation

/// A daemon under test with its HTTP viewer listener on an ephemeral loopback port, and the
/// URL, port and token it logged.
struct ViewerDaemon {
  let daemon: DaemonProcess
  let url: String
  let port: UInt16
  let token: String

  /// Starts the daemon with `config` and `arguments` and reads the viewer's URL from its log
  /// (polled).
  init(config: String? = #"{"http": {"listen": "127.0.0.1:0"}}"#, arguments: [String] = [])
    throws
  {
    let daemon = try DaemonProcess(config: config, arguments: arguments)
    self.daemon = daemon
    var line: String?
    _ = DaemonHarness.waitUntil {
      line = daemon.log.components(separatedBy: "\n").first { $0.contains(" viewer: http://") }
      return line != nil
    }
    guard let logged = line, let start = logged.range(of: "http://") else {
      throw DaemonHarnessError("no viewer URL in the log: \(daemon.log)")
    }
    url = String(logged[start.lowerBound...])
    guard let components = URLComponents(string: url), let port = components.port,
      let token = components.queryItems?.first(where: { $0.name == "token" })?.value
    else { throw DaemonHarnessError("the logged viewer URL has no port or token: \(url)") }
    self.port = UInt16(port)
    self.token = token
  }

  /// A request for `path`, with `token` added to its query when given.
  func get(_ path: String, token: String? = nil, method: String = "GET") throws
    -> ViewerHTTPReply
  {
    let separator = path.contains("?") ? "&" : "?"
    let target = token.map { path + separator + "token=" + $0 } ?? path
    return try ViewerHTTPClient.get(port: port, target, method: method)
  }
}
