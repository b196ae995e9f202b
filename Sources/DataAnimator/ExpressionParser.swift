/// Reads an expression's text (`Expression`), refusing what it cannot read with the position.
///
/// Grammar, lowest precedence first:
/// ```
/// sum     = product (("+" | "-") product)*
/// product = unary (("*" | "/" | "%") unary)*
/// unary   = "-" unary | primary
/// primary = number | name | name "(" sum ("," sum)* ")" | "(" sum ")"
/// name    = word ("." word)*        word = [A-Za-z_][A-Za-z0-9_]*
/// ```
/// Numbers are decimal, with an optional fraction and exponent (`1e-6`); spaces are ignored.
struct ExpressionParser {
  private let characters: [Character]
  private var index = 0
  private var depth = 0
  /// The slots the names read are given.
  private var slots: NameSlots

  private init(_ text: String, slots: NameSlots) {
    characters = Array(text)
    self.slots = slots
  }

  /// Parses `text` as a whole expression, each name it reads given its slot in `slots` (a
  /// new one for a new name).
  /// - Throws: `ExpressionError` naming the character where reading stopped.
  static func parse(_ text: String, slots: inout NameSlots) throws(ExpressionError)
    -> Expression
  {
    guard text.count <= Expression.maximumLength else {
      throw ExpressionError("longer than \(Expression.maximumLength) characters")
    }
    var parser = ExpressionParser(text, slots: slots)
    let expression = try parser.sum()
    parser.skipSpaces()
    guard parser.index == parser.characters.count else {
      throw parser.failure("unexpected \"\(parser.characters[parser.index])\"")
    }
    slots = parser.slots
    return expression
  }

  private func failure(_ reason: String) -> ExpressionError {
    ExpressionError("\(reason) at character \(index + 1)")
  }

  private mutating func skipSpaces() {
    while index < characters.count, characters[index] == " " { index += 1 }
  }

  private mutating func peek() -> Character? {
    skipSpaces()
    return index < characters.count ? characters[index] : nil
  }

  private mutating func enter() throws(ExpressionError) {
    depth += 1
    guard depth <= Expression.maximumDepth else {
      throw failure("nested deeper than \(Expression.maximumDepth)")
    }
  }

  private mutating func sum() throws(ExpressionError) -> Expression {
    try enter()
    defer { depth -= 1 }
    var left = try product()
    while let next = peek(), next == "+" || next == "-" {
      index += 1
      left = .binary(next == "+" ? .add : .subtract, left, try product())
    }
    return left
  }

  private mutating func product() throws(ExpressionError) -> Expression {
    var left = try unary()
    while let next = peek(), let operation = Expression.BinaryOperator(rawValue: next),
      operation == .multiply || operation == .divide || operation == .remainder
    {
      index += 1
      left = .binary(operation, left, try unary())
    }
    return left
  }

  private mutating func unary() throws(ExpressionError) -> Expression {
    guard peek() == "-" else { return try primary() }
    index += 1
    try enter()
    defer { depth -= 1 }
    return .negate(try unary())
  }

  private mutating func primary() throws(ExpressionError) -> Expression {
    guard let next = peek() else { throw failure("an expression is missing") }
    if next == "(" {
      index += 1
      let inner = try sum()
      guard peek() == ")" else { throw failure("expected \")\"") }
      index += 1
      return inner
    }
    if next.isASCII, next.isNumber || next == "." { return .number(try number()) }
    if next.isASCII, next.isLetter || next == "_" {
      let name = try self.name()
      guard peek() == "(" else { return .name(name, slot: slots.slot(for: name)) }
      guard let function = ExpressionFunction(rawValue: name) else {
        throw ExpressionError(
          "unknown function \"\(name)\" (known: "
            + ExpressionFunction.allCases.map(\.rawValue).joined(separator: ", ") + ")")
      }
      index += 1
      try enter()
      defer { depth -= 1 }
      var arguments = [try sum()]
      while peek() == "," {
        index += 1
        arguments.append(try sum())
      }
      guard peek() == ")" else { throw failure("expected \",\" or \")\"") }
      index += 1
      guard function.arity.contains(arguments.count) else {
        throw ExpressionError(
          "\(function.signature) takes \(Self.describe(function.arity)), got \(arguments.count)")
      }
      return .call(function, arguments)
    }
    throw failure("unexpected \"\(next)\"")
  }

  private static func describe(_ arity: ClosedRange<Int>) -> String {
    guard arity.lowerBound != arity.upperBound else {
      return arity.lowerBound == 1 ? "1 argument" : "\(arity.lowerBound) arguments"
    }
    return "\(arity.lowerBound) to \(arity.upperBound) arguments"
  }

  private mutating func name() throws(ExpressionError) -> String {
    var name = ""
    while true {
      guard index < characters.count, characters[index].isASCII,
        characters[index].isLetter || characters[index] == "_"
      else { throw failure("expected a name") }
      while index < characters.count, characters[index].isASCII,
        characters[index].isLetter || characters[index].isNumber || characters[index] == "_"
      {
        name.append(characters[index])
        index += 1
      }
      guard index < characters.count, characters[index] == "." else { return name }
      name.append(".")
      index += 1
    }
  }

  private mutating func number() throws(ExpressionError) -> Double {
    let start = index
    func digits() -> Int {
      let from = index
      while index < characters.count, characters[index].isASCII, characters[index].isNumber {
        index += 1
      }
      return index - from
    }
    var count = digits()
    if index < characters.count, characters[index] == "." {
      index += 1
      count += digits()
    }
    guard count > 0 else { throw failure("malformed number") }
    if index < characters.count, characters[index] == "e" || characters[index] == "E" {
      index += 1
      if index < characters.count, characters[index] == "+" || characters[index] == "-" {
        index += 1
      }
      guard digits() > 0 else { throw failure("malformed number") }
    }
    guard let value = Double(String(characters[start..<index])), value.isFinite else {
      index = start
      throw failure("number out of range")
    }
    return value
  }
}
