import TransitionKit

/// The order in which operations are listed: the four UIKit operations first, in the order a
/// user meets them, then any others alphabetically.
enum OperationOrder {
  static let known = TransitionOperation.allCases.map(\.rawValue)

  /// `operations` sorted in listing order.
  static func sorted<S: Sequence>(_ operations: S) -> [String] where S.Element == String {
    operations.sorted { left, right in
      let leftRank = known.firstIndex(of: left) ?? known.count
      let rightRank = known.firstIndex(of: right) ?? known.count
      return leftRank != rightRank ? leftRank < rightRank : left < right
    }
  }
}
