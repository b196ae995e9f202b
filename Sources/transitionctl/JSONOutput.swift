import TransitionClient
import TransitionJSON

/// Formats values as JSON for `--json`: pretty-printed with sorted keys, so output is stable
/// for diffs and readable by `jq`.
enum JSONOutput {
  /// The reply's payload (the reply without `ok` and `id`) as JSON text, with `extra` members
  /// added.
  static func payload(of reply: Reply, adding extra: [String: JSONValue] = [:]) -> String {
    JSONValue.object(reply.payload.merging(extra) { _, added in added }).prettyPrinted
  }
}
