import TransitionWire

/// One op of the protocol, declared once: its name, who may call it, the members it takes
/// besides `op` and `id`, what it does, and its handler (docs/protocol.md, "Ops").
///
/// ``ServerCore`` dispatches through ``OpRecord/table`` alone: the unknown-member check
/// (`bad_request` naming the member), the admin rule (`forbidden`) and the handler all come from
/// the op's record, and docs/protocol.md's op table is ``OpRecord/markdownTable`` (a test keeps
/// them equal).
struct OpRecord: Sendable {
  /// What a handler does with a request whose op, access and members were checked: it reads
  /// the fields it needs (each failure a `bad_request` or `invalid_context` naming the field),
  /// then acts and replies through `client`.
  typealias Handler =
    @Sendable (ServerCore, Request, RequestID?, Client) throws(WireError) -> Void

  /// The op's name on the wire.
  let op: Op
  /// Who may call it.
  let access: OpAccess
  /// The members it takes besides `op` and `id`, in the order its docs list them; any other
  /// is refused before the handler runs.
  let members: [String]
  /// What it does, in a few words: the "does" column of the docs' table.
  let summary: String
  /// Decodes its fields and runs it.
  let handler: Handler

  init(
    _ op: Op, _ access: OpAccess, members: [String] = [], _ summary: String,
    handler: @escaping Handler
  ) {
    self.op = op
    self.access = access
    self.members = members
    self.summary = summary
    self.handler = handler
  }

  /// The record of an interactive control op: it takes `session` and `members`, and may be
  /// called by the session's user or an admin.
  ///
  /// - Parameter control: Reads the op's control from the request.
  static func control(
    _ op: Op, members: [String] = [], _ summary: String,
    control: @escaping @Sendable (Request) throws(WireError) -> SessionControl
  ) -> OpRecord {
    OpRecord(op, .sessionUserOrAdmin, members: ["session"] + members, summary) {
      core, request, id, client throws(WireError) in
      let session = try request.requiredString("session")
      try core.control(try control(request), session: session, id: id, from: client)
    }
  }
}
