import Testing

@testable import DataAnimator

@Suite struct ExpressionTests {
  /// `text` parsed, its names given slots of their own.
  func parse(_ text: String) throws -> Expression {
    var slots = NameSlots()
    return try ExpressionParser.parse(text, slots: &slots)
  }

  /// Values of names by their text.
  struct Names: ExpressionScope {
    var values: [String: Double]

    func value(of name: String, slot: Int) throws(ExpressionError) -> Double {
      guard let value = values[name] else { throw ExpressionError("no \(name)") }
      return value
    }
  }

  func value(_ text: String, _ names: [String: Double] = [:]) throws -> Double {
    try parse(text).evaluate(in: Names(values: names))
  }

  @Test func precedenceAndAssociativity() throws {
    #expect(try value("1 + 2 * 3") == 7)
    #expect(try value("(1 + 2) * 3") == 9)
    #expect(try value("10 - 4 - 3") == 3)
    #expect(try value("-2 * 3") == -6)
    #expect(try value("- -2") == 2)
    #expect(try value("7 % 4") == 3)
    #expect(try value("1e-6") == 1e-6)
    #expect(try value(".5") == 0.5)
  }

  @Test func namesAndFunctions() throws {
    let names: [String: Double] = ["layer.midX": 30, "container.width": 100]
    #expect(try value("container.width / 2 - layer.midX", names) == 20)
    #expect(try value("min(3, 1, 2)") == 1)
    #expect(try value("clamp(5, 0, 1)") == 1)
    #expect(try value("mix(10, 20, 0.25)") == 12.5)
    #expect(try value("distance(0, 0, 3, 4)") == 5)
    #expect(try value("ratio(1, 0, 7)") == 7)
    #expect(try value("atan2(1, 1)") == Double.pi / 4)
    #expect(try parse("a + b.c * a").names == ["a", "b.c"])
  }

  @Test(arguments: ["", "1 +", "(1", "1 2", "foo(1)", "min(1)", "2..5", "a.", "1e", "@"])
  func malformedTextIsRefused(_ text: String) {
    #expect(throws: ExpressionError.self) { try parse(text) }
  }

  @Test func failuresOfArithmeticAreErrors() {
    #expect(throws: ExpressionError.self) { try value("1 / 0") }
    #expect(throws: ExpressionError.self) { try value("5 % 0") }
    #expect(throws: ExpressionError.self) { try value("sqrt(-1)") }
    #expect(throws: ExpressionError.self) { try value("1e300 * 1e300") }
    #expect(throws: ExpressionError.self) { try value("clamp(1, 2, 0)") }
  }
}
