import PluginHost
import TransitionJSON
import TransitionKit
import TransitionWire

/// The admin ops `route`, `reload` and `end` (the router has checked the peer already).
extension Daemon {
  func handleRoute(_ request: Request, from client: ClientConnection) throws(WireError) {
    let name = try request.requiredString("operation")
    guard let operation = TransitionOperation(rawValue: name) else {
      throw WireError(
        .badRequest, "operation must be one of push, pop, present, dismiss, got \"\(name)\"")
    }
    let animatorName = try request.requiredString("animator")
    let animator = try loadedAnimator(named: animatorName)
    guard animator.serves(operation) else {
      throw WireError(
        .unsupportedOperation,
        "animator \(animatorName) does not serve \(name) (it serves "
          + animator.orderedOperations.map(\.rawValue).joined(separator: ", ") + ")")
    }
    routes.set(operation, to: animatorName)
    logger.info("route \(name) -> \(animatorName) (by \(client.peerDescription))")
    client.reply(id: request.id, ["routes": routes.json])
  }

  func handleReload(_ request: Request, from client: ClientConnection) throws(WireError) {
    logger.info("reload requested by \(client.peerDescription)")
    let (count, problems) = try reload()
    let diagnostics = problems.map { problem in
      JSONValue.object([
        "code": .string(problem.code.rawValue), "severity": .string(problem.severity.description),
        "message": .string(problem.message),
      ])
    }
    client.reply(
      id: request.id, ["animators": .number(Double(count)), "diagnostics": .array(diagnostics)])
  }

  func handleEnd(_ request: Request, from client: ClientConnection) throws(WireError) {
    let session = try existingSession(request)
    client.reply(id: request.id, ["session": .string(session.id)])
    logger.info("session \(session.id) ended by \(client.peerDescription)")
    session.end(at: loop.now)
  }
}
