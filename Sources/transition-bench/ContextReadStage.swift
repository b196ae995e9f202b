import TransitionJSON
import TransitionKit
import TransitionWire

/// A tap's reads of its transition context, each in a function of its own so that
/// `valgrind --tool=callgrind --toggle-collect='*ContextReadStage*'` counts them alone (or
/// `'*ContextReadStage*host*'`, `'*ContextReadStage*daemon*'` one of them).
enum ContextReadStage {
  /// The plugin host's read of the context it is sent, as a data animator's
  /// `outcome(forContextJSON:encoding:)` reads it; returns its layer count.
  @inline(never)
  static func hostRead(_ contextJSON: [UInt8]) throws -> Int {
    try TransitionContext(jsonBytes: contextJSON).from.layers.count
  }

  /// The daemon's read of a `begin` line up to its validated context, as `BeginRequest`
  /// reads it: the request parsed (its `context` checked, not built), then the context
  /// decoded from its text; returns its layer count.
  @inline(never)
  static func daemonRead(_ beginLine: [UInt8]) throws -> Int {
    let request: Request
    do { request = try Request(line: beginLine) } catch { throw error.error }
    return try TransitionContext(jsonBytes: request.contextText ?? [], path: "context").from
      .layers.count
  }
}
