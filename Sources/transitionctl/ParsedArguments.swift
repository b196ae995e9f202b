import TransitionClient

/// A verb's command line split into positionals, flags and options, by hand.
///
/// Accepted forms: `--flag`, `--option VALUE`, `--option=VALUE`, `-h` for `--help`, `-j` for
/// `--json`, `-q` for `--quiet`, and `--` to end options. An option's value is taken verbatim,
/// so `--progress -0.5` reads `-0.5`. A lone `-` and `*` are positionals.
struct ParsedArguments {
  /// Arguments that are not options, in order.
  private(set) var positionals: [String] = []
  /// The flags given, by name without dashes.
  private(set) var flags: Set<String> = []
  /// The options given, by name without dashes; the last occurrence wins.
  private(set) var options: [String: String] = [:]

  private static let shortForms: [Character: String] = ["h": "help", "j": "json", "q": "quiet"]

  /// Parses `arguments` for `verb`.
  ///
  /// - Parameters:
  ///   - flags: names (without dashes) that take no value.
  ///   - options: names (without dashes) that take one value.
  /// - Throws: a usage ``CommandFailure`` for an unknown option, a missing value, or a value
  ///   given to a flag.
  init(_ arguments: [String], verb: String, flags: Set<String>, options: Set<String>)
    throws(CommandFailure)
  {
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        optionsEnded = true
        continue
      }
      var name: String
      var inlineValue: String?
      if argument.hasPrefix("--") {
        name = String(argument.dropFirst(2))
        if let equals = name.firstIndex(of: "=") {
          inlineValue = String(name[name.index(after: equals)...])
          name = String(name[..<equals])
        }
      } else if argument.count == 2, let long = Self.shortForms[argument.last ?? " "] {
        name = long
      } else {
        throw .usage("unknown option '\(argument)' for '\(verb)'", verb: verb)
      }
      if flags.contains(name) {
        if inlineValue != nil { throw .usage("--\(name) takes no value", verb: verb) }
        self.flags.insert(name)
      } else if options.contains(name) {
        if let inlineValue {
          self.options[name] = inlineValue
        } else if index < arguments.count {
          self.options[name] = arguments[index]
          index += 1
        } else {
          throw .usage("--\(name) needs a value", verb: verb)
        }
      } else {
        throw .usage("unknown option '\(argument)' for '\(verb)'", verb: verb)
      }
    }
  }

  /// Whether the flag `name` was given.
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// The value of option `name`, if given.
  func value(_ name: String) -> String? { options[name] }

  /// The value of option `name` as a finite number within `range`, if given.
  ///
  /// - Throws: a usage ``CommandFailure`` naming the option when the value is not such a
  ///   number.
  func number(_ name: String, in range: ClosedRange<Double>, verb: String) throws(CommandFailure)
    -> Double?
  {
    guard let text = options[name] else { return nil }
    guard let value = Double(text), value.isFinite, range.contains(value) else {
      let bounds =
        range.upperBound == .greatestFiniteMagnitude
        ? "a number of at least \(Self.format(range.lowerBound))"
        : "a number in [\(Self.format(range.lowerBound)), \(Self.format(range.upperBound))]"
      throw .usage("--\(name) needs \(bounds), got '\(text)'", verb: verb)
    }
    return value
  }

  /// The option `name` as `X,Y` (a touch, or its velocity): two finite numbers within
  /// ±10^6, the daemon's coordinate bound; nil when absent.
  func point(_ name: String, verb: String) throws(CommandFailure) -> TouchPoint? {
    guard let text = options[name] else { return nil }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]),
      x.isFinite, y.isFinite, abs(x) <= 1e6, abs(y) <= 1e6
    else {
      throw .usage("--\(name) needs X,Y: two numbers within ±1000000, got '\(text)'", verb: verb)
    }
    return TouchPoint(x: x, y: y)
  }

  /// The positionals, checked to number between `minimum` and `maximum`.
  ///
  /// - Parameter names: how the usage line names them, for the error message.
  /// - Throws: a usage ``CommandFailure`` when there are too few or too many.
  func positionals(minimum: Int, maximum: Int, names: String, verb: String) throws(CommandFailure)
    -> [String]
  {
    if positionals.count < minimum {
      throw .usage("'\(verb)' needs \(names)", verb: verb)
    }
    if positionals.count > maximum {
      let extra = positionals[maximum]
      throw .usage("unexpected argument '\(extra)' for '\(verb)'", verb: verb)
    }
    return positionals
  }

  private static func format(_ bound: Double) -> String {
    if bound == bound.rounded() { return String(Int(bound)) }
    return String(bound)
  }
}
