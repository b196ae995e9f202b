extension TransitionOperation {
  /// Every operation as messages list them: `push, pop, present, dismiss`.
  public static var listing: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
