import Foundation
import PluginLoader

/// `transitiond check-plugin LIB.so [--scene FILE]...`: checks a plugin as the daemon would
/// load and run it, prints the report on stdout, and returns the exit status: 0 when every
/// check passed, 1 when one failed, 64 (`EX_USAGE`), 65 (`EX_DATAERR`) or 66 (`EX_NOINPUT`)
/// when the checks could not run (one line on stderr).
public enum PluginCheckCommand {
  public static let usage = """
    usage: transitiond check-plugin LIB.so|ANIMATOR.json [--scene FILE]...

    Loads LIB.so with the daemon's checks (ownership and permissions, ABI version, entry symbol,
    descriptor, animators), then runs every animator on every scene given (default: the example
    scenes of config/scenes) whose operation it serves, and checks each timeline: it decodes
    and validates, names every context layer and its own layers <animator>.…, its first frame
    draws the from screen, its last frame the to screen, and a cancelled session ends on the
    from screen. A data animator (ANIMATOR.json, docs/animators.md) is validated instead of
    loaded: each problem is one line, file:line:column: /json/pointer: message. Exit status 0
    when everything passed, 1 when a check failed.

    """

  /// Runs the command on the arguments after `check-plugin`.
  public static func run(_ arguments: [String]) -> Int32 {
    do throws(PluginCheckError) {
      let (library, scenePaths) = try parse(arguments)
      guard let library else {
        print(usage, terminator: "")
        return 0
      }
      let scenes =
        scenePaths.isEmpty
        ? try CheckScene.examples(in: exampleSceneDirectories())
        : try scenes(at: scenePaths)
      guard FileManager.default.fileExists(atPath: library) else {
        throw PluginCheckError(.noInput, "\(library): no such file")
      }
      let report: PluginCheckReport
      if library.hasSuffix(".json") {
        switch PluginRegistry.readDataAnimator(path: library) {
        case .failure(let failure):
          let lines = failure.issues.map { "\($0)\n" }.joined()
          FileHandle.standardError.write(Data(lines.utf8))
          return 1
        case .success(let animator):
          report = PluginChecker.check(animator, path: library, scenes: scenes)
        }
      } else {
        report = PluginChecker.check(library: library, scenes: scenes)
      }
      print(report.text, terminator: "")
      return report.passed ? 0 : 1
    } catch {
      FileHandle.standardError.write(Data("transitiond check-plugin: \(error.message)\n".utf8))
      return error.kind.exitStatus
    }
  }

  private static func scenes(at paths: [String]) throws(PluginCheckError) -> [CheckScene] {
    var scenes: [CheckScene] = []
    for path in paths { scenes.append(try CheckScene(path: path)) }
    return scenes
  }

  /// The library (nil for `--help`) and the scene paths.
  static func parse(_ arguments: [String]) throws(PluginCheckError) -> (String?, [String]) {
    var library: String?
    var scenes: [String] = []
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--help", "-h":
        return (nil, [])
      case "--scene":
        guard index + 1 < arguments.count else {
          throw PluginCheckError(.usage, "--scene needs a file")
        }
        scenes.append(arguments[index + 1])
        index += 1
      default:
        guard !argument.hasPrefix("-") else {
          throw PluginCheckError(.usage, "unknown option \(argument)")
        }
        guard library == nil else {
          throw PluginCheckError(.usage, "give one library, got \(library!) and \(argument)")
        }
        library = argument
      }
      index += 1
    }
    guard let library else { throw PluginCheckError(.usage, "give a library: check-plugin LIB.so") }
    return (library, scenes)
  }

  /// Where the example scenes are: `share/transitiond/scenes` beside an installed `bin/`, and
  /// `config/scenes` in a source tree above a build's products directory.
  static func exampleSceneDirectories() -> [String] {
    guard let executableDirectory = PluginSearchPath.runningExecutableDirectory() else { return [] }
    var directories = [
      ((executableDirectory as NSString).deletingLastPathComponent as NSString)
        .appendingPathComponent("share/transitiond/scenes")
    ]
    var directory = executableDirectory
    for _ in 0..<4 {
      directory = (directory as NSString).deletingLastPathComponent
      directories.append((directory as NSString).appendingPathComponent("config/scenes"))
    }
    return directories
  }
}
