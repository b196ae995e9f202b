import Foundation
import TransitionClient

/// The command line of a worker process, `transition-soak worker ROLE --socket PATH --until T
/// --seed N --scenes DIR --viewer URL`, as ``SoakRun`` starts it; T is the deadline on the
/// monotonic clock.
struct WorkerOptions {
  var role: String
  var socketPath = ""
  var deadline = 0.0
  var seed: UInt64 = 1
  var scenesDirectory = "config/scenes"
  var viewerURL = ""

  init(arguments: [String]) throws {
    guard let role = arguments.first else { throw SoakFailure("worker: which role?") }
    self.role = role
    var rest = arguments.dropFirst()
    while let name = rest.popFirst() {
      guard let value = rest.popFirst() else { throw SoakFailure("worker: \(name) needs a value") }
      switch name {
      case "--socket": socketPath = value
      case "--until": deadline = Double(value) ?? 0
      case "--seed": seed = UInt64(value) ?? 1
      case "--scenes": scenesDirectory = value
      case "--viewer": viewerURL = value
      default: throw SoakFailure("worker: unknown argument \(name)")
      }
    }
  }

  /// The roles that make the load rather than judge it run at a lower priority (nice 10), so
  /// that the daemon and the processes that measure it are not starved by the soak's own
  /// churn.
  static let loadRoles: Set = ["churn", "stalled", "viewer"]

  /// Runs the role to the deadline.
  func run() throws -> WorkerReport {
    if Self.loadRoles.contains(role) {
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    }
    switch role {
    case "churn", "steady":
      let client = try DaemonClient(path: socketPath)
      let transitions = try SoakScenes.transitions(
        animators: try client.animators().animators, scenesDirectory: scenesDirectory)
      client.close()
      if role == "churn" {
        var worker = ChurnWorker(
          socketPath: socketPath, transitions: transitions, deadline: deadline, seed: seed)
        return worker.run()
      }
      var worker = SteadySubscriber(
        socketPath: socketPath, transitions: transitions, deadline: deadline, seed: seed)
      return worker.run()
    case "probe":
      var probe = WakeUpProbe(deadline: deadline, seed: seed)
      return probe.run()
    case "stalled":
      var worker = StalledSubscriber(socketPath: socketPath, deadline: deadline, seed: seed)
      return worker.run()
    case "viewer":
      guard var worker = EventStreamVisitor(viewerURL: viewerURL, deadline: deadline, seed: seed)
      else { throw SoakFailure("worker: no usable viewer URL (\(viewerURL))") }
      return worker.run()
    default:
      throw SoakFailure("worker: unknown role \(role)")
    }
  }
}
