/// `transitionctl help [VERB]`: the overview, or one verb's help.
enum HelpCommand: Command {
  static let name = "help"
  static let summary = "Show the overview, or the help of one command."
  static let usage = "help [COMMAND]"
  static let details = """
    Without COMMAND, lists every command; with one, prints its help (the same as
    'transitionctl COMMAND --help').

    example:
      transitionctl help play
    """

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let positionals = try arguments.positionals(minimum: 0, maximum: 1, names: "", verb: name)
    guard let verb = positionals.first else {
      try context.output.write(Transitionctl.overview)
      return ExitCode.success
    }
    guard let command = Transitionctl.command(named: verb) else {
      throw .usage("unknown command '\(verb)'")
    }
    try context.output.write(command.help)
    return ExitCode.success
  }
}
