import Foundation
import Testing

@testable import IntegrationSupport

/// `transitionctl` behaviour that needs no daemon: help, usage errors, completion scripts,
/// scene-file errors found before connecting, and the "daemon unreachable" path.
@Suite("transitionctl without a daemon")
struct TransitionctlOfflineTests {
  static let verbs = [
    "animators", "routes", "use", "play", "watch", "view", "drive", "sessions", "stats", "reload",
    "end", "version", "completion", "help",
  ]

  @Test("--help on every verb prints its usage and an example, exit 0", arguments: verbs)
  func helpOnEveryVerb(verb: String) throws {
    let result = try TransitionctlRun.run([verb, "--help"], socket: nil)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("usage: transitionctl \(verb)"))
    #expect(result.stdout.contains("example:") || result.stdout.contains("examples:"))
    // Ends its last line, so the shell's prompt starts on a line of its own.
    #expect(result.stdout.hasSuffix("\n") && !result.stdout.hasSuffix("\n\n"))
    #expect(result.stderr.isEmpty)
  }

  @Test("the overview lists every verb")
  func overviewListsEveryVerb() throws {
    let result = try TransitionctlRun.run(["--help"], socket: nil)
    #expect(result.status == 0)
    for verb in Self.verbs {
      #expect(result.stdout.contains("\n  \(verb) "), "overview misses \(verb)")
    }
    let helpVerb = try TransitionctlRun.run(["help", "play"], socket: nil)
    #expect(helpVerb.status == 0)
    #expect(helpVerb.stdout.hasPrefix("usage: transitionctl play"))
  }

  @Test("no daemon: exit 69 and one line naming the socket")
  func unreachableDaemon() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let missing = directory.file("missing.sock")
    for verb in [
      ["animators"], ["sessions", "--json"], ["stats"], ["use", "push", "default-slide"],
    ] {
      let result = try TransitionctlRun.run(verb, socket: missing)
      #expect(result.status == 69)
      #expect(
        result.stderr == "transitionctl: cannot connect to \(missing): is transitiond running?\n")
      #expect(result.stdout.isEmpty)
    }
  }

  @Test("TRANSITIOND_SOCKET chooses the socket when --socket is absent")
  func environmentChoosesSocket() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let fromEnvironment = directory.file("env.sock")
    let result = try TransitionctlRun.run(
      ["routes"], socket: nil, environment: ["TRANSITIOND_SOCKET": fromEnvironment])
    #expect(result.status == 69)
    #expect(result.stderr.contains("cannot connect to \(fromEnvironment):"))
    // --socket wins over the environment.
    let explicit = directory.file("flag.sock")
    let overridden = try TransitionctlRun.run(
      ["routes", "--socket", explicit], socket: nil,
      environment: ["TRANSITIOND_SOCKET": fromEnvironment])
    #expect(overridden.stderr.contains("cannot connect to \(explicit):"))
  }

  @Test(
    "usage errors exit 64 with one line on stderr",
    arguments: [
      ["frobnicate"], ["animators", "--bogus"], ["use", "push"], ["play"],
      ["drive", "s1"], ["drive", "s1", "--pause", "--resume"],
      ["drive", "s1", "--progress", "1.5"],
      ["drive", "s1", "--progress", "abc"], ["drive", "s1", "--pause", "--velocity", "2"],
      ["watch", "--fps", "0"], ["completion", "tcsh"], ["sessions", "extra"],
      ["play", "a.json", "--fps"],
    ])
  func usageErrors(arguments: [String]) throws {
    let result = try TransitionctlRun.run(arguments, socket: "/nonexistent/socket")
    #expect(result.status == 64)
    #expect(result.stderr.hasPrefix("transitionctl: "))
    #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    #expect(result.stdout.isEmpty)
  }

  @Test("bad scene files exit 65 naming the file, before contacting the daemon")
  func badSceneFiles() throws {
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let cases: [(name: String, text: String, problem: String)] = [
      ("broken.json", "{\"operation\": \"push\",\n  \"container\": [390, 844],, }", "line 2"),
      ("array.json", "[1, 2]", "JSON object"),
      (
        "no-operation.json",
        "{\"container\": [390, 844], \"from\": {\"layers\": []}, \"to\": {\"layers\": []}}",
        "operation"
      ),
      (
        "bad-container.json",
        "{\"operation\": \"push\", \"container\": [390], \"from\": {\"layers\": []}, \"to\": {\"layers\": []}}",
        "container"
      ),
      (
        "bad-duration.json",
        "{\"operation\": \"push\", \"container\": [390, 844], \"from\": {\"layers\": []}, \"to\": {\"layers\": []}, \"duration\": \"long\"}",
        "duration"
      ),
      (
        "misspelt.json",
        "{\"operation\": \"push\", \"container\": [390, 844], \"from\": {\"layers\": []}, \"to\": {\"layers\": []}, \"interactve\": true}",
        "\"interactve\" is not a scene key"
      ),
      (
        "negative-frame.json",
        "{\"operation\": \"push\", \"container\": [390, 844], \"from\": {\"layers\": [{\"id\": \"a\", \"frame\": [0, 0, 10, 10]}, {\"id\": \"b\", \"frame\": [0, 0, -1, 10]}]}, \"to\": {\"layers\": []}}",
        ": from.layers[1].frame must not have a negative width or height"
      ),
      (
        "unknown-layer-key.json",
        "{\"operation\": \"push\", \"container\": [390, 844], \"from\": {\"layers\": [{\"id\": \"a\", \"frame\": [0, 0, 10, 10], \"rol\": \"cell\"}]}, \"to\": {\"layers\": []}}",
        ": from.layers[0].rol is not a known field"
      ),
      (
        "selected-nowhere.json",
        "{\"operation\": \"push\", \"container\": [390, 844], \"selected\": \"x\", \"from\": {\"layers\": []}, \"to\": {\"layers\": []}}",
        ": selected \"x\" names no layer"
      ),
    ]
    for scene in cases {
      let path = try directory.write(scene.name, scene.text)
      // The socket does not exist: a 65 proves the file was refused before connecting.
      let result = try TransitionctlRun.run(["play", path], socket: directory.file("none.sock"))
      #expect(result.status == 65, "\(scene.name): \(result.stderr)")
      #expect(result.stderr.hasPrefix("transitionctl: \(path): "))
      #expect(result.stderr.contains(scene.problem), "\(scene.name): \(result.stderr)")
      #expect(!result.stderr.contains("context."), "\(scene.name): \(result.stderr)")
    }
    let missing = try TransitionctlRun.run(["play", directory.file("absent.json")], socket: nil)
    #expect(missing.status == 66)
    #expect(missing.stderr.contains("absent.json"))
  }

  @Test("completion scripts for bash, zsh and fish name every verb")
  func completionScripts() throws {
    let bash = try TransitionctlRun.run(["completion", "bash"], socket: nil)
    #expect(bash.status == 0)
    #expect(bash.stdout.contains("complete -F _transitionctl transitionctl"))
    let zsh = try TransitionctlRun.run(["completion", "zsh"], socket: nil)
    #expect(zsh.status == 0)
    #expect(zsh.stdout.hasPrefix("#compdef transitionctl"))
    let fish = try TransitionctlRun.run(["completion", "fish"], socket: nil)
    #expect(fish.status == 0)
    #expect(fish.stdout.contains("complete -c transitionctl"))
    for verb in Self.verbs {
      #expect(bash.stdout.contains(verb))
      #expect(zsh.stdout.contains("'\(verb):"))
      #expect(fish.stdout.contains("-a \(verb) "))
    }
  }

  @Test("the bash completion script parses and completes verbs and options")
  func bashCompletionWorks() throws {
    guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return }
    let directory = try TransitionctlTemporaryDirectory()
    defer { directory.remove() }
    let script = try TransitionctlRun.run(["completion", "bash"], socket: nil).stdout
    let path = try directory.write("completion.bash", script)
    let probe = """
      source \(path)
      COMP_WORDS=(transitionctl pl); COMP_CWORD=1; _transitionctl; echo "verbs: ${COMPREPLY[*]}"
      COMP_WORDS=(transitionctl drive s1 --fin); COMP_CWORD=3; _transitionctl; echo "options: ${COMPREPLY[*]}"
      COMP_WORDS=(transitionctl use p); COMP_CWORD=2; _transitionctl; echo "operations: ${COMPREPLY[*]}"
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", probe]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(output.contains("verbs: play\n"))
    #expect(output.contains("options: --finish\n"))
    #expect(output.contains("operations: push pop present\n"))
  }

  @Test("--version prints the client's version without a daemon")
  func clientVersion() throws {
    let result = try TransitionctlRun.run(["--version"], socket: nil)
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("transitionctl "))
  }
}
