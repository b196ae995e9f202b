import TransitionJSON
import TransitionKit

/// Which animator serves each operation; admins switch entries at run time with `route`.
struct AnimatorRoutes: Equatable {
  private(set) var routes: [TransitionOperation: String]

  init(_ routes: [TransitionOperation: String]) {
    self.routes = routes
  }

  /// The animator routed for `operation`, if any.
  func animator(for operation: TransitionOperation) -> String? {
    routes[operation]
  }

  /// Routes `operation` to `animator`.
  mutating func set(_ operation: TransitionOperation, to animator: String) {
    routes[operation] = animator
  }

  /// The `routes` object of the protocol: operation name to animator name.
  var json: JSONValue {
    .object(
      Dictionary(uniqueKeysWithValues: routes.map { ($0.key.rawValue, JSONValue.string($0.value)) })
    )
  }
}
