import CTransitionPlugin
import TransitionKit

/// The mapping between `TransitionOperation` and the ABI's `TRANSITIOND_OPERATION_` bits: the
/// one place both sides of the plugin boundary (the host's reader, the SDK's export) take them.
public enum OperationMask {
  /// Each operation's bit in `transitiond_animator.operations`.
  public static func bit(_ operation: TransitionOperation) -> UInt32 {
    switch operation {
    case .push: return UInt32(TRANSITIOND_OPERATION_PUSH)
    case .pop: return UInt32(TRANSITIOND_OPERATION_POP)
    case .present: return UInt32(TRANSITIOND_OPERATION_PRESENT)
    case .dismiss: return UInt32(TRANSITIOND_OPERATION_DISMISS)
    }
  }

  /// Every bit the ABI defines.
  public static let known: UInt32 = TransitionOperation.allCases.reduce(0) { $0 | bit($1) }

  /// The operations in `mask`, or `nil` when it sets a reserved bit.
  public static func operations(in mask: UInt32) -> Set<TransitionOperation>? {
    guard mask & ~known == 0 else { return nil }
    return Set(TransitionOperation.allCases.filter { mask & bit($0) != 0 })
  }

  /// The mask of `operations`.
  public static func mask(_ operations: Set<TransitionOperation>) -> UInt32 {
    operations.reduce(0) { $0 | bit($1) }
  }
}
