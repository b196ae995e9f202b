import FrameStreaming
import TransitionKit
import TransitionWire

/// The ops of protocol v1, one record each, in the order docs/protocol.md lists them.
extension OpRecord {
  static let all: [OpRecord] = [
    OpRecord(.hello, .anyone, members: ["client", "protocol"], "version handshake") {
      core, request, id, client throws(WireError) in
      try core.hello(ClientGreeting(request), id: id, from: client)
    },
    OpRecord(.animators, .anyone, "loaded animators and the route table") {
      core, _, id, client in
      core.listAnimators(id: id, from: client)
    },
    OpRecord(.routes, .anyone, "the route table") { core, _, id, client in
      client.reply(id: id, ["routes": core.routes.json])
    },
    OpRecord(
      .route, .admin, members: ["operation", "animator"], "routes an operation to an animator"
    ) { core, request, id, client throws(WireError) in
      let name = try request.requiredString("operation")
      guard let operation = TransitionOperation(rawValue: name) else {
        throw WireError(
          .badRequest, "operation must be one of push, pop, present, dismiss, got \"\(name)\"")
      }
      try core.route(
        operation, to: try request.requiredString("animator"), id: id, from: client)
    },
    OpRecord(
      .begin, .anyone,
      members: [
        "context", "animator", "duration", "interactive", "session", "params", "touch",
        "reduceMotion", "interrupts",
      ],
      "starts a session"
    ) { core, request, id, client throws(WireError) in
      try core.begin(try BeginRequest(request), id: id, from: client)
    },
    OpRecord(
      .subscribe, .anyone,
      members: ["session", "fps", "clock", "timeline", "encoding", "geometry", "display"],
      "starts a frame stream"
    ) { core, request, id, client throws(WireError) in
      let subscribe = try SubscribeRequest(
        request, defaultFps: core.config.defaultFps, now: core.clock.now,
        defaultLead: core.config.pacingLead)
      try core.subscribe(subscribe, id: id, from: client)
    },
    OpRecord(.unsubscribe, .anyone, members: ["subscription"], "stops a frame stream") {
      core, request, id, client throws(WireError) in
      try core.unsubscribe(try request.requiredInteger("subscription"), id: id, from: client)
    },
    OpRecord(
      .resync, .anyone, members: ["subscription"],
      "asks for a key frame on a delta subscription"
    ) { core, request, id, client throws(WireError) in
      try core.resync(try request.requiredInteger("subscription"), id: id, from: client)
    },
    OpRecord(
      .display, .anyone, members: ["subscription", "period", "vblank", "lead"],
      "changes a subscription's display timing"
    ) { core, request, id, client throws(WireError) in
      let subscription = try request.requiredInteger("subscription")
      let timing = try DisplayTiming(
        reading: request.body, now: core.clock.now, defaultLead: core.config.pacingLead)
      try core.changeDisplay(subscription, to: timing, id: id, from: client)
    },
    OpRecord(
      .presented, .anyone, members: ["subscription", "session", "seq", "time"],
      "reports when a display-paced frame was presented"
    ) { core, request, id, client throws(WireError) in
      try core.presented(try PresentationReport(request), id: id, from: client)
    },
    OpRecord(
      .frame, .anyone, members: ["session", "at", "encoding", "geometry"],
      "the frame of a session at an instant, in the reply"
    ) { core, request, id, client throws(WireError) in
      try core.pullFrame(try FramePull(request, now: core.clock.now), id: id, from: client)
    },
    OpRecord(.clock, .anyone, "the daemon's clock now") { core, _, id, client in
      client.reply(id: id, ["now": .number(core.clock.now)])
    },
    .control(
      .update, members: ["progress", "touch"], "sets a session's progress or finger",
      control: SessionControl.update(reading:)),
    .control(.pause, "pauses a session") { _ throws(WireError) in .pause },
    .control(.resume, "resumes a paused session") { _ throws(WireError) in .resume },
    .control(.reverse, "reverses a session's direction") { _ throws(WireError) in .reverse },
    .control(.seek, members: ["progress"], "moves a session to a progress") {
      request throws(WireError) in
      .seek(progress: try request.requiredNumber("progress"))
    },
    .control(
      .finish, members: ["velocity", "touchVelocity"], "plays a session to its end"
    ) { request throws(WireError) in
      .finish(
        velocity: try request.optionalNumber("velocity"),
        touchVelocity: try request.optionalPoint("touchVelocity"))
    },
    .control(
      .cancel, members: ["velocity", "touchVelocity"], "plays a session back to its start"
    ) { request throws(WireError) in
      .cancel(
        velocity: try request.optionalNumber("velocity"),
        touchVelocity: try request.optionalPoint("touchVelocity"))
    },
    .control(
      .release, members: ["touchVelocity"],
      "lets go of a finger: finishes or cancels as the release rule decides"
    ) { request throws(WireError) in
      .release(touchVelocity: try request.optionalPoint("touchVelocity") ?? .zero)
    },
    OpRecord(.end, .admin, members: ["session"], "cancels a session at once") {
      core, request, id, client throws(WireError) in
      try core.end(try request.requiredString("session"), id: id, from: client)
    },
    OpRecord(.sessions, .anyone, "the running sessions") { core, _, id, client in
      core.listSessions(id: id, from: client)
    },
    OpRecord(.stats, .anyone, "counters") { core, _, id, client in
      core.reportStats(id: id, from: client)
    },
    OpRecord(.reload, .admin, "re-reads the config, rescans plugins") {
      core, _, id, client throws(WireError) in
      try core.reload(id: id, from: client)
    },
  ]

  /// Each op's record, for dispatch.
  static let table: [Op: OpRecord] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.op, $0) })

  /// The record of the op named `name`.
  ///
  /// - Throws: `unknown_op` when no op has that name.
  static func named(_ name: String) throws(WireError) -> OpRecord {
    guard let op = Op(rawValue: name), let record = table[op] else {
      throw WireError(.unknownOp, "unknown op \"\(name)\"")
    }
    return record
  }

  /// docs/protocol.md's op table, one row a record: op, who, members, does.
  static var markdownTable: String {
    var lines = ["| op | who | members | does |", "| --- | --- | --- | --- |"]
    for record in all {
      let members =
        record.members.isEmpty ? "none" : record.members.map { "`\($0)`" }.joined(separator: ", ")
      lines.append(
        "| `\(record.op.rawValue)` | \(record.access.rawValue) | \(members) | \(record.summary) |")
    }
    return lines.joined(separator: "\n")
  }
}
