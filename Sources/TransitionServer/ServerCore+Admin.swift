import TransitionJSON
import TransitionKit
import TransitionWire

/// The admin ops `route` and `reload` (their records' ``OpAccess/admin`` was checked already; `end` is with the
/// session ops).
extension ServerCore {
  func route(
    _ operation: TransitionOperation, to animatorName: String, id: RequestID?, from client: Client
  ) throws(WireError) {
    try requireServes(try loadedAnimator(named: animatorName), operation)
    routes.set(operation, to: animatorName)
    logger.info("route \(operation.rawValue) -> \(animatorName) (by \(client))")
    client.reply(id: id, ["routes": routes.json])
  }

  /// Answers when the daemon's handler has reloaded the config and the plugin host has
  /// rescanned (the client's later requests wait, as they do for a `begin`).
  func reload(id: RequestID?, from client: Client) throws(WireError) {
    logger.info("reload requested by \(client)")
    guard let reloadHandler else {
      throw WireError(.reloadFailed, "this server cannot reload its configuration")
    }
    client.isWaitingForAnimator = true
    reloadHandler { [weak self] result in
      guard let self else { return }
      switch result {
      case .success(let outcome):
        let diagnostics = outcome.diagnostics.map { problem in
          JSONValue.object([
            "code": .string(problem.code.rawValue),
            "severity": .string(problem.severity.description),
            "message": .string(problem.message),
          ])
        }
        client.reply(
          id: id,
          ["animators": .number(Double(outcome.animators)), "diagnostics": .array(diagnostics)])
      case .failure(let error):
        client.fail(id: id, error)
      }
      self.resumeWaitingRequests(of: client)
      client.flushNow()
    }
  }
}
