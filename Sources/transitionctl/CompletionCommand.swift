/// `transitionctl completion bash|zsh|fish`: prints a shell completion script.
enum CompletionCommand: Command {
  static let name = "completion"
  static let summary = "Print a completion script for bash, zsh or fish."
  static let usage = "completion bash|zsh|fish"
  static let details = """
    Prints a script that completes transitionctl's verbs, options, scene files, session ids
    and animator names in the given shell.

    example:
      transitionctl completion bash > /etc/bash_completion.d/transitionctl
      transitionctl completion zsh > "${fpath[1]}/_transitionctl"
      transitionctl completion fish > ~/.config/fish/completions/transitionctl.fish
    """

  static func run(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandFailure)
    -> Int32
  {
    let shell = try arguments.positionals(
      minimum: 1, maximum: 1, names: "a shell: bash, zsh or fish", verb: name)[0]
    guard let script = CompletionScripts.script(for: shell, commands: Transitionctl.commands) else {
      throw .usage("no completion for '\(shell)': choose bash, zsh or fish", verb: name)
    }
    try context.output.write(script)
    return ExitCode.success
  }
}
