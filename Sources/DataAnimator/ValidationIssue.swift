/// One problem found in a data animator file: where it is and what is wrong.
///
/// Written as compilers write diagnostics, one line each:
/// `album-flip.json:12:7: /operations/push/rules/3/tracks/0/to: unknown name "spred"`.
public struct ValidationIssue: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file as the caller named it.
  public var file: String
  /// The line and column, both from 1, of the value at fault (of the file's start for a problem
  /// with the whole file).
  public var line: Int
  public var column: Int
  /// The JSON pointer (RFC 6901) of the value at fault; `""` for the whole document.
  public var pointer: String
  public var message: String

  public init(file: String, line: Int, column: Int, pointer: String, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.pointer = pointer
    self.message = message
  }

  /// `file:line:column: /pointer: message`; the pointer reads `/` for the whole document.
  public var description: String {
    "\(file):\(line):\(column): \(pointer.isEmpty ? "/" : pointer): \(message)"
  }
}

/// Every problem found in one data animator file (at least one), in the file's order.
public struct AnimatorFileError: Error, Equatable, Sendable, CustomStringConvertible {
  public var issues: [ValidationIssue]

  public init(_ issues: [ValidationIssue]) { self.issues = issues }

  /// One line per problem.
  public var description: String { issues.map(\.description).joined(separator: "\n") }
}
