import Glibc
import TransitionJSON
import TransitionKit
import TransitionWire

/// The read ops, open to every client: `hello`, `animators`, `routes`, `sessions`, `stats`.
extension Daemon {
  func handleHello(_ request: Request, from client: ClientConnection) {
    client.reply(
      id: request.id,
      [
        "server": .string("transitiond"), "version": .string(Self.version),
        "protocol": .number(Double(Self.protocolVersion)), "pid": .number(Double(getpid())),
        "admin": .bool(adminPolicy.isAdmin(client.credentials)),
      ])
  }

  func handleAnimators(_ request: Request, from client: ClientConnection) {
    let animators: [JSONValue] = registry.animators.map { animator in
      .object([
        "name": .string(animator.name),
        "operations": .array(animator.orderedOperations.map { .string($0.rawValue) }),
        "plugin": .string(animator.pluginName), "version": .string(animator.pluginVersion),
        "duration": .number(animator.defaultDuration), "path": .string(animator.libraryPath),
      ])
    }
    client.reply(id: request.id, ["animators": .array(animators), "routes": routes.json])
  }

  func handleRoutes(_ request: Request, from client: ClientConnection) {
    client.reply(id: request.id, ["routes": routes.json])
  }

  func handleSessions(_ request: Request, from client: ClientConnection) {
    let now = loop.now
    let list: [JSONValue] = sessions.all.map { session in
      .object([
        "session": .string(session.id), "animator": .string(session.animatorName),
        "operation": .string(session.operation.rawValue), "state": .string(session.stateName),
        "progress": .number(session.progress(at: now)), "duration": .number(session.duration),
        "t": .number(now - session.startTime), "interactive": .bool(session.interactive),
        "subscribers": .number(Double(session.subscriberCount)),
      ])
    }
    client.reply(id: request.id, ["sessions": .array(list)])
  }

  func handleStats(_ request: Request, from client: ClientConnection) {
    let subscriptions = clients.values.reduce(0) { $0 + $1.subscriptions.count }
    client.reply(
      id: request.id,
      [
        "stats": stats.json(
          now: loop.now, activeSessions: sessions.count, subscriptions: subscriptions)
      ])
  }
}
