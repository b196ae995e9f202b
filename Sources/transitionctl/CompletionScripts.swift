/// Shell completion scripts for bash, zsh and fish, generated from the verb table so that
/// they list exactly the verbs and options `transitionctl` accepts.
///
/// Dynamic completions ask the daemon: session ids come from `transitionctl sessions -q`,
/// animator names from `transitionctl animators -q`.
enum CompletionScripts {
  /// The shells a script exists for.
  static let shells = ["bash", "zsh", "fish"]

  /// What a verb's positional arguments are, for completing them.
  enum Positional {
    case none, sceneFile, session, operationThenAnimator, shell, verb
  }

  /// The positional kind of each verb.
  static func positional(of verb: String) -> Positional {
    switch verb {
    case "play", "render": .sceneFile
    case "watch", "drive", "end": .session
    case "use": .operationThenAnimator
    case "completion": .shell
    case "help": .verb
    default: .none
    }
  }

  /// The script for `shell`, or `nil` for a shell without one.
  static func script(for shell: String, commands: [any Command.Type]) -> String? {
    switch shell {
    case "bash": bash(commands)
    case "zsh": zsh(commands)
    case "fish": fish(commands)
    default: nil
    }
  }

  private static let operations = OperationOrder.known.joined(separator: " ")
  private static let valueOptionsPattern =
    "--socket|--out|--animator|--duration|--fps|--session|--progress|--seek|--velocity|--count"
    + "|--scale|--start|--end|--hold|--background|--images"

  private static func optionWords(_ command: any Command.Type) -> String {
    (command.flags.sorted() + command.options.sorted() + ["help", "socket"])
      .map { "--\($0)" }.joined(separator: " ")
  }

  private static func bash(_ commands: [any Command.Type]) -> String {
    let verbs = commands.map { $0.name }.joined(separator: " ")
    var cases = ""
    for command in commands {
      let completion: String
      switch positional(of: command.name) {
      case .sceneFile:
        completion = #"COMPREPLY+=($(compgen -f -X '!*.json' -- "$cur") $(compgen -d -- "$cur"))"#
      case .session:
        completion =
          #"COMPREPLY+=($(compgen -W "$(transitionctl sessions -q 2>/dev/null)" -- "$cur"))"#
      case .operationThenAnimator:
        completion =
          #"if (( npos == 0 )); then COMPREPLY+=($(compgen -W "\#(operations)" -- "$cur")); else COMPREPLY+=($(compgen -W "$(transitionctl animators -q 2>/dev/null)" -- "$cur")); fi"#
      case .shell: completion = #"COMPREPLY+=($(compgen -W "bash zsh fish" -- "$cur"))"#
      case .verb: completion = #"COMPREPLY+=($(compgen -W "\#(verbs)" -- "$cur"))"#
      case .none: completion = ":"
      }
      cases += """
            \(command.name))
              if [[ "$cur" == -* ]]; then
                COMPREPLY=($(compgen -W "\(optionWords(command))" -- "$cur"))
              else
                \(completion)
              fi
              ;;

        """
    }
    return """
      # bash completion for transitionctl
      # Install: transitionctl completion bash > /etc/bash_completion.d/transitionctl
      _transitionctl() {
        local cur prev verb npos i
        COMPREPLY=()
        cur="${COMP_WORDS[COMP_CWORD]}"
        prev="${COMP_WORDS[COMP_CWORD-1]}"
        verb=""
        npos=0
        for ((i = 1; i < COMP_CWORD; i++)); do
          case "${COMP_WORDS[i]}" in
            \(valueOptionsPattern)) ((i++)) ;;
            -*) ;;
            *) if [[ -z "$verb" ]]; then verb="${COMP_WORDS[i]}"; else ((npos++)); fi ;;
          esac
        done
        case "$prev" in
          --socket|--out) COMPREPLY=($(compgen -f -- "$cur")); return ;;
          --animator) COMPREPLY=($(compgen -W "$(transitionctl animators -q 2>/dev/null)" -- "$cur")); return ;;
          --duration|--fps|--session|--progress|--seek|--velocity|--count) return ;;
        esac
        if [[ -z "$verb" ]]; then
          COMPREPLY=($(compgen -W "\(verbs) --socket --help --version" -- "$cur"))
          return
        fi
        case "$verb" in
      \(cases)  esac
      }
      complete -F _transitionctl transitionctl

      """
  }

  private static func zsh(_ commands: [any Command.Type]) -> String {
    let verbList = commands.map { "    '\($0.name):\(escapeZsh($0.summary))'" }.joined(
      separator: "\n")
    var cases = ""
    for command in commands {
      var specs = command.flags.sorted().map { "'--\($0)'" }
      for option in command.options.sorted() {
        switch option {
        case "animator":
          specs.append(
            "'--animator=[animator]:animator:($(transitionctl animators -q 2>/dev/null))'")
        case "out": specs.append("'--out=[file]:file:_files'")
        default: specs.append("'--\(option)=[\(option)]:\(option):'")
        }
      }
      specs.append("'--socket=[socket]:socket:_files'")
      specs.append("'--help'")
      switch positional(of: command.name) {
      case .sceneFile: specs.append("'1:scene:_files -g \"*.json\"'")
      case .session: specs.append("'1:session:($(transitionctl sessions -q 2>/dev/null))'")
      case .operationThenAnimator:
        specs.append("'1:operation:(\(operations))'")
        specs.append("'2:animator:($(transitionctl animators -q 2>/dev/null))'")
      case .shell: specs.append("'1:shell:(bash zsh fish)'")
      case .verb: specs.append("'1:command:(\(commands.map { $0.name }.joined(separator: " ")))'")
      case .none: break
      }
      cases += "    \(command.name)) _arguments \(specs.joined(separator: " ")) ;;\n"
    }
    return """
      #compdef transitionctl
      # zsh completion for transitionctl
      # Install: transitionctl completion zsh > "${fpath[1]}/_transitionctl"
      _transitionctl() {
        local -a verbs
        verbs=(
      \(verbList)
        )
        if (( CURRENT == 2 )); then
          _describe 'command' verbs
          return
        fi
        local verb=${words[2]}
        shift words
        (( CURRENT-- ))
        case $verb in
      \(cases)  esac
      }
      _transitionctl "$@"

      """
  }

  private static func fish(_ commands: [any Command.Type]) -> String {
    let verbs = commands.map { $0.name }.joined(separator: " ")
    var lines = [
      "# fish completion for transitionctl",
      "# Install: transitionctl completion fish > ~/.config/fish/completions/transitionctl.fish",
      "complete -c transitionctl -f",
      "complete -c transitionctl -l socket -r -F -d 'the daemon socket'",
      "complete -c transitionctl -n __fish_use_subcommand -l version -d 'print the version'",
    ]
    for command in commands {
      lines.append(
        "complete -c transitionctl -n __fish_use_subcommand -a \(command.name) -d '\(escapeFish(command.summary))'"
      )
      let condition = "'__fish_seen_subcommand_from \(command.name)'"
      for flag in command.flags.sorted() {
        lines.append("complete -c transitionctl -n \(condition) -l \(flag)")
      }
      for option in command.options.sorted() {
        switch option {
        case "animator":
          lines.append(
            "complete -c transitionctl -n \(condition) -l animator -x -a '(transitionctl animators -q 2>/dev/null)'"
          )
        case "out": lines.append("complete -c transitionctl -n \(condition) -l out -r -F")
        default: lines.append("complete -c transitionctl -n \(condition) -l \(option) -x")
        }
      }
      switch positional(of: command.name) {
      case .sceneFile: lines.append("complete -c transitionctl -n \(condition) -F")
      case .session:
        lines.append(
          "complete -c transitionctl -n \(condition) -a '(transitionctl sessions -q 2>/dev/null)'")
      case .operationThenAnimator:
        lines.append(
          "complete -c transitionctl -n \(condition) -a '\(operations) (transitionctl animators -q 2>/dev/null)'"
        )
      case .shell: lines.append("complete -c transitionctl -n \(condition) -a 'bash zsh fish'")
      case .verb: lines.append("complete -c transitionctl -n \(condition) -a '\(verbs)'")
      case .none: break
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func escapeZsh(_ text: String) -> String {
    text.replacingOccurrences(of: "'", with: "'\\''").replacingOccurrences(of: ":", with: "\\:")
  }

  private static func escapeFish(_ text: String) -> String {
    text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'")
  }
}
