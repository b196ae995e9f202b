import CTransitionPlugin
import TransitionKit

/// The mapping between `TransitionOperation` and the ABI's `TRANSITIOND_OPERATION_` bits.
enum OperationMask {
  /// Each operation's bit in `transitiond_animator.operations`.
  static func bit(_ operation: TransitionOperation) -> UInt32 {
    switch operation {
    case .push: return UInt32(TRANSITIOND_OPERATION_PUSH)
    case .pop: return UInt32(TRANSITIOND_OPERATION_POP)
    case .present: return UInt32(TRANSITIOND_OPERATION_PRESENT)
    case .dismiss: return UInt32(TRANSITIOND_OPERATION_DISMISS)
    }
  }

  /// Every bit the ABI defines.
  static let known: UInt32 = TransitionOperation.allCases.reduce(0) { $0 | bit($1) }

  /// The operations in `mask`, or `nil` when it sets a reserved bit.
  static func operations(in mask: UInt32) -> Set<TransitionOperation>? {
    guard mask & ~known == 0 else { return nil }
    return Set(TransitionOperation.allCases.filter { mask & bit($0) != 0 })
  }
}
