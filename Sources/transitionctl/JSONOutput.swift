import Foundation
import TransitionClient

/// Formats values as JSON for `--json`: pretty-printed with sorted keys, so output is stable
/// for diffs and readable by `jq`.
enum JSONOutput {
  /// The reply's payload (the reply without `ok` and `id`) as JSON text.
  static func payload(of reply: Reply) -> String {
    encode(reply.payload)
  }

  /// `value` as pretty-printed JSON text (`null` if it cannot be encoded).
  static func encode(_ value: Any) -> String {
    guard JSONSerialization.isValidJSONObject(value),
      let data = try? JSONSerialization.data(
        withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    else {
      return "null"
    }
    return String(decoding: data, as: UTF8.self)
  }
}
