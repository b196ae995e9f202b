/// An arithmetic expression of a data animator: numbers, names, `+ - * / %`, unary minus,
/// parentheses and the calls of `ExpressionFunction`.
///
/// Expressions are pure and total apart from two failures: a division by zero and a result
/// that is not finite, both `ExpressionError`s. They are evaluated once per context when the
/// timeline is built, never per frame.
indirect enum Expression: Equatable, Sendable {
  case number(Double)
  /// A name, and its slot among the document's names (``NameSlots``), which the parser gives.
  case name(String, slot: Int)
  case negate(Expression)
  case binary(BinaryOperator, Expression, Expression)
  case call(ExpressionFunction, [Expression])

  enum BinaryOperator: Character, Sendable {
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"
  }

  /// The longest expression text accepted, in characters.
  static let maximumLength = 1000
  /// The deepest nesting of operators, parentheses and calls accepted.
  static let maximumDepth = 32

  /// The expression's value when it is a number written out (`4`, `-2`, `"-2"`), which reading
  /// can check; nil for anything that needs names or calls.
  var constantValue: Double? {
    switch self {
    case .number(let value): value
    case .negate(let operand): operand.constantValue.map { -$0 }
    default: nil
    }
  }

  /// Every name the expression reads, in the order they first appear.
  var names: [String] {
    var found: [String] = []
    collectNames(into: &found)
    return found
  }

  private func collectNames(into found: inout [String]) {
    switch self {
    case .number: break
    case .name(let name, _): if !found.contains(name) { found.append(name) }
    case .negate(let operand): operand.collectNames(into: &found)
    case .binary(_, let left, let right):
      left.collectNames(into: &found)
      right.collectNames(into: &found)
    case .call(_, let arguments): for argument in arguments { argument.collectNames(into: &found) }
    }
  }

  /// The expression's value, with `scope` giving the value of each name.
  /// - Throws: `ExpressionError` for a name `scope` has no value for, a division by zero, or a
  ///   value that is not finite.
  func evaluate(in scope: some ExpressionScope) throws(ExpressionError) -> Double {
    let value: Double
    switch self {
    case .number(let number): value = number
    case .name(let name, let slot): value = try scope.value(of: name, slot: slot)
    case .negate(let operand): value = -(try operand.evaluate(in: scope))
    case .binary(let operation, let left, let right):
      let a = try left.evaluate(in: scope)
      let b = try right.evaluate(in: scope)
      switch operation {
      case .add: value = a + b
      case .subtract: value = a - b
      case .multiply: value = a * b
      case .divide, .remainder:
        guard b != 0 else { throw ExpressionError("division by zero") }
        value = operation == .divide ? a / b : a.truncatingRemainder(dividingBy: b)
      }
    case .call(let function, let arguments):
      // The arguments' values on the stack, room for `ExpressionFunction.maximumArity` of them.
      var values = InlineArray<16, Double>(repeating: 0)
      for index in arguments.indices { values[index] = try arguments[index].evaluate(in: scope) }
      value = try function.apply(values.span.extracting(..<arguments.count))
    }
    guard value.isFinite else { throw ExpressionError("the value is not finite") }
    return value
  }
}

/// The values of the names an expression reads while it is evaluated.
protocol ExpressionScope {
  /// The value of the name `name`, whose slot is `slot` (``NameSlots``).
  /// - Throws: `ExpressionError` when the name has no value.
  func value(of name: String, slot: Int) throws(ExpressionError) -> Double
}

/// Why an expression could not be read or evaluated; the message names no file or path (the
/// caller adds where).
struct ExpressionError: Error, Equatable, Sendable {
  let message: String
  init(_ message: String) { self.message = message }
}
