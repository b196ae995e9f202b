import Foundation
import SoakAnalysis

/// The command line of `transition-soak` (`transition-soak --help`).
struct SoakOptions {
  static let usage = """
    usage: transition-soak [--seconds N] [--warm-up N] [--bin DIR] [--animators DIR] [--scenes DIR]

    Runs transitiond under a bounded churn from several processes for N seconds (default 600)
    and fails (exit 1) when, after the warm-up (default a fifth, at most 60 s), the daemon's
    resident memory, descriptors, threads, scheduled timers or sessions grow beyond their
    slack, when a healthy subscriber misses a frame or gets one more than 20 ms late, or when
    a request gets no reply (docs/security.md, "Soak"). Prints its figures either way.

      --bin DIR        transitiond and the plugins (default: this executable's directory)
      --animators DIR  data animators (default config/animators)
      --scenes DIR     example scenes whose contexts are begun (default config/scenes)
    """

  var seconds = 600.0
  var warmUp: Double?
  var binDirectory: String
  var animatorDirectory = "config/animators"
  var scenesDirectory = "config/scenes"

  /// - Throws: ``SoakFailure`` naming the first bad argument.
  init(arguments: [String], executableDirectory: String) throws {
    binDirectory = executableDirectory
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      let value = { () throws(SoakFailure) -> String in
        guard let value = rest.popFirst() else { throw SoakFailure("\(argument) needs a value") }
        return value
      }
      switch argument {
      case "--seconds":
        let text = try value()
        guard let number = Double(text), number >= 10, number.isFinite else {
          throw SoakFailure("--seconds must be a number of seconds, at least 10 (got \(text))")
        }
        seconds = number
      case "--warm-up":
        let text = try value()
        guard let number = Double(text), number >= 0, number.isFinite else {
          throw SoakFailure("--warm-up must be a number of seconds (got \(text))")
        }
        warmUp = number
      case "--bin": binDirectory = try value()
      case "--animators": animatorDirectory = try value()
      case "--scenes": scenesDirectory = try value()
      default: throw SoakFailure("unknown argument \(argument)\n\(Self.usage)")
      }
    }
    let current = FileManager.default.currentDirectoryPath
    for path in [\SoakOptions.binDirectory, \.animatorDirectory, \.scenesDirectory]
    where !self[keyPath: path].hasPrefix("/") {
      self[keyPath: path] = current + "/" + self[keyPath: path]
    }
    if let warmUp, warmUp >= seconds * 0.8 {
      throw SoakFailure("--warm-up must leave at least a fifth of --seconds to judge")
    }
  }

  var warmUpSeconds: Double { warmUp ?? SoakLimits.warmUpSeconds(forSoakOf: seconds) }
}
