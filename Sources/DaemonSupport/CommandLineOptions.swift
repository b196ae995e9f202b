import TransitionServer

/// What the command line asked for: run with options, or print help or the version.
enum CommandLineRequest: Equatable {
  case run(DaemonOptions)
  case help
  case version
}

/// A command line that cannot be understood: one line naming the problem.
struct UsageError: Error, Equatable, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// Parses `transitiond`'s arguments (without the program name).
///
/// Options take their value as the next argument or after `=`: `--socket PATH`,
/// `--socket=PATH`. `--plugin-path` may be repeated.
///
/// - Throws: ``UsageError`` for an unknown option, a missing value or a bad log level.
func parseCommandLine(_ arguments: [String]) throws(UsageError) -> CommandLineRequest {
  var options = DaemonOptions()
  var index = 0
  func value(for option: String, inline: String?) throws(UsageError) -> String {
    if let inline { return inline }
    index += 1
    guard index < arguments.count else { throw UsageError(message: "\(option) needs a value") }
    return arguments[index]
  }
  while index < arguments.count {
    let argument = arguments[index]
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    let option = argument.hasPrefix("--") ? parts[0] : argument
    let inline = argument.hasPrefix("--") && parts.count == 2 ? parts[1] : nil
    switch option {
    case "--help", "-h": return .help
    case "--version": return .version
    case "--config": options.configPath = try value(for: option, inline: inline)
    case "--socket": options.socketPath = try value(for: option, inline: inline)
    case "--plugin-path": options.pluginPaths.append(try value(for: option, inline: inline))
    case "--animator-path":
      options.animatorPaths.append(try value(for: option, inline: inline))
    case "--log-level":
      let name = try value(for: option, inline: inline)
      guard let level = LogLevel(name: name) else {
        throw UsageError(message: "--log-level must be error, warn, info or debug, got \(name)")
      }
      options.logLevel = level
    case "--viewer":
      let text = try value(for: option, inline: inline)
      guard let address = HTTPListenAddress(text) else {
        throw UsageError(
          message:
            "--viewer must be a loopback address and port such as 127.0.0.1:7878, got \(text)")
      }
      options.viewerListen = address
    case "--viewer-images":
      let path = try value(for: option, inline: inline)
      guard path.hasPrefix("/") else {
        throw UsageError(message: "--viewer-images must be an absolute path, got \(path)")
      }
      options.viewerImages = path
    default:
      throw UsageError(message: "unknown argument \(argument) (see transitiond --help)")
    }
    index += 1
  }
  return .run(options)
}

/// The `--help` text.
let usageText = """
  usage: transitiond [--config FILE] [--socket PATH] [--plugin-path DIR]...
                     [--animator-path DIR]... [--log-level LEVEL]
                     [--viewer ADDRESS [--viewer-images DIR]]
         transitiond check-plugin LIB.so|ANIMATOR.json [--scene FILE]...   (--help for more)
         transitiond --help | --version

  The transition daemon: hosts animator plugins, evaluates transition timelines and streams
  frames as newline-delimited JSON to subscribers on a Unix socket. Runs in the foreground and
  logs to standard error.

  options:
    --config FILE       read the configuration from FILE (docs/config.md); built-in defaults
                        when absent
    --socket PATH       listen on PATH instead of the config's socket (default:
                        $TRANSITIOND_SOCKET, else $XDG_RUNTIME_DIR/transitiond/transitiond.sock,
                        else /tmp/transitiond-<uid>/transitiond.sock)
    --plugin-path DIR   search DIR (a directory or a library) for plugins instead of the
                        config's pluginPaths; repeatable
    --animator-path DIR watch DIR for data animators (<name>.json) instead of the config's
                        animatorPaths; repeatable (docs/animators.md)
    --log-level LEVEL   error, warn, info or debug (default: the config's, else info)
    --viewer ADDRESS    serve the live viewer page on ADDRESS (a loopback address and port,
                        such as 127.0.0.1:7878) behind a random token, which is logged at
                        start; overrides the config's http.listen (docs/viewer.md)
    --viewer-images DIR the pictures the viewer serves at /images/NAME (an absolute path);
                        overrides the config's http.images
    --help              print this help
    --version           print the version

  signals: SIGHUP reloads the config and rescans plugins; SIGINT and SIGTERM stop.
  exit status: 0 after a clean stop, 64 bad arguments, 78 bad config or unusable socket path,
  69 socket in use, 71 system failure.

  """
