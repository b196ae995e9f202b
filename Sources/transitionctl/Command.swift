/// One `transitionctl` verb: its name, its help, the options it accepts, and what it does.
protocol Command {
  /// The verb as typed (`play`).
  static var name: String { get }
  /// One line for the verb list in `transitionctl --help`.
  static var summary: String { get }
  /// The synopsis after `transitionctl ` (`play SCENE.json [--fps N]`).
  static var usage: String { get }
  /// The help body: what the verb does, its options, exit codes and an example.
  static var details: String { get }
  /// Flags (no value) the verb accepts besides the global ones.
  static var flags: Set<String> { get }
  /// Options (one value) the verb accepts besides the global ones.
  static var options: Set<String> { get }
  /// Runs the verb.
  ///
  /// - Returns: the exit status.
  /// - Throws: ``CommandFailure`` with the status and the line for stderr.
  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
}

extension Command {
  static var flags: Set<String> { [] }
  static var options: Set<String> { [] }

  /// The full `--help` text.
  static var help: String {
    "usage: transitionctl \(usage)\n\n\(summary)\n\n\(details)\n"
  }
}
