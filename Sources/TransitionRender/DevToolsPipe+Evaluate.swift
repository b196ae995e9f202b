import TransitionJSON

extension DevToolsPipe {
  /// Evaluates `expression` in the page attached as `session` (`Runtime.evaluate`), awaiting
  /// it if it is a promise, and returns its value.
  ///
  /// - Throws: ``Failure`` with the page's exception when the expression throws or its
  ///   promise rejects, or as ``call(_:_:session:)``.
  @discardableResult
  public func evaluate(_ expression: String, session: String) throws(Failure) -> JSONValue {
    let result = try call(
      "Runtime.evaluate",
      ["expression": .string(expression), "awaitPromise": true, "returnByValue": true],
      session: session)
    if let exception = result["exceptionDetails"] {
      let text =
        exception["exception"]?["description"]?.stringValue
        ?? exception["text"]?.stringValue ?? exception.serialized
      throw Failure(description: "the page failed: \(text)")
    }
    return result["result"]?["value"] ?? .null
  }
}
